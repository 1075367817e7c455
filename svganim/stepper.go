package svganim

import _ "embed"

// StepperFile is the name of the stepper script, the decoder of the patch
// format patch.go encodes: pages load it after WordsFile. It lives here,
// beside its encoder, so the two change together; the site writes it into
// its assets folder unless a templates folder provides its own.
const StepperFile = "stepper.js"

// stepperJS is stepper.js: it shows beat b of every figure on the page by
// setting each tracked field to its value at b (see patch.go), and wires
// the controls, keyboard, deep links and captions. Dependency-free, within
// the 6 KiB budget TestStepperBudget keeps.
//
//go:embed stepper.js
var stepperJS []byte

// StepperJS returns the content of StepperFile. The slice is shared: do
// not modify it.
func StepperJS() []byte { return stepperJS }
