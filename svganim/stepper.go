package svganim

import _ "embed"

// StepperFile is the name of the stepper script, the decoder of the patch
// format patch.go encodes: pages load it after WordsFile. It lives here,
// beside its encoder, so the two change together; the site writes it into
// its assets folder unless a templates folder provides its own.
const StepperFile = "stepper.js"

// StepperBudget is the most stepper.js and kf-words.js (WordsJS), the
// scripts every figure loads, may weigh together, gzip-compressed at
// gzip's default level: 8 KB (8,000 bytes). TestStepperBudget keeps it and
// kflowgen bench checks it on the built site. It is a gzip budget so that
// the stepper can be written to be read, with names and comments.
const StepperBudget = 8000

// stepperJS is stepper.js: it shows beat b of every figure on the page by
// setting each tracked field to its value at b (see patch.go), rings the
// marks that changed since the beat before, keeps the caption area's
// height, and wires the controls, keyboard, deep links and captions. It
// opens a figure at its data-open beat. Dependency-free, within
// StepperBudget.
//
//go:embed stepper.js
var stepperJS []byte

// StepperJS returns the content of StepperFile. The slice is shared: do
// not modify it.
func StepperJS() []byte { return stepperJS }

// KnobsFile is the name of the script that swaps a figure's knob
// combinations (KnobFigure): stepper.js loads it from beside itself at a
// reader's first pick, so it is no part of a page's first paint (pages
// with knobs load only the stylesheet kf-knobs.css, from templates). It
// loads each combination's script (v/ID.N.js, fence.VariantFile) from
// beside itself.
const KnobsFile = "kf-knobs.js"

//go:embed knobs.js
var knobsJS []byte

// KnobsJS returns the content of KnobsFile. The slice is shared: do not
// modify it.
func KnobsJS() []byte { return knobsJS }

// LinkFile is the name of the script that follows a deep link
// (#ID@BEAT?KNOB=VALUE&…): stepper.js loads it from beside itself when
// the address first holds one, so it is no part of a page's first paint.
// It shows the beat and knob values the link names, scrolls to the
// figure, and says in a note at the figure's top what of a hand-typed
// link it could not follow (a beat that is no number or past the end, a
// knob or value the figure does not have).
const LinkFile = "kf-link.js"

//go:embed link.js
var linkJS []byte

// LinkJS returns the content of LinkFile. The slice is shared: do not
// modify it.
func LinkJS() []byte { return linkJS }
