// Package svganim draws a Kafka Flow trace: one SVG frame per beat, and the
// HTML figure that lets a reader step through them.
//
// It is a pure renderer. Everything it draws comes from the recorded trace
// (sim.Trace): it never re-runs or second-guesses the engine, reads no
// files and keeps no state between calls, and the same trace always gives
// the same bytes.
//
// Drawing happens in three steps:
//
//  1. TopologyOf gathers what decides the geometry over the whole trace
//     (brokers, the partitions each hosts, the longest log, how crowded
//     each producer stage gets, the groups and their members), so nothing
//     moves because something appears later.
//  2. NewLayout turns that topology into integer coordinates: a beat
//     counter, the producer rail with one zone per stage, one lane per
//     broker with one row per partition, one lane per group. It is a pure
//     function, tested on its own.
//  3. Each beat is drawn as a list of marks — a lane, an offset cell, a
//     high-watermark tick, a record card — each with an identity that
//     lasts across beats, CSS classes, a position, up to three short texts
//     and an SVG <title> that says what it means. Marks are written with
//     github.com/ajstarks/svgo.
//
// The visual language: the producer rail holds a card per record not yet
// settled, in the zone of its stage (queued, sending, waiting, answering,
// backoff, settled); a card that settled badly carries F, U or L as it
// leaves, and the rail's tally (tally.go) counts the records at each
// outcome so far, so an outcome stays on the picture after its card has
// gone. Each broker lane holds that broker's replica of each partition
// as a row of offset cells coloured by the record's key (Okabe–Ito
// palette, with the key's short label on every cell as a second cue);
// cells at or above that replica's high watermark are drawn hollow and
// dashed. A badge names the leader (and its leader epoch) or a follower
// and says whether the replica is in the ISR; a solid tick labelled HW
// marks the replica's high watermark above the row, a dashed tick
// labelled LEO its log end offset below it. An offline broker's lane turns
// the offline red; a broker whose follower fetchers are paused gets a
// dashed amber outline. Group lanes list members and, per partition, the
// consumer group's position and committed offset or the share group's
// in-flight records and start offset.
//
// Colours and type live in CSS (templates/figure.css), as classes and
// custom properties, so a theme or dark mode needs no re-render. svgo does
// not escape attributes: only constants, integers and ids reduced to
// [a-z0-9-] go into attributes, and user strings (titles, keys, group and
// member names) only into text content, which svgo escapes.
//
// Frame returns one beat as a standalone SVG document, every mark with its
// <title>. Figure returns the whole <figure> for a page: the picture, key
// legend, an aria-live caption that leads with one headline per beat
// (headline.go), the storyboard for readers without
// JavaScript, and a JSON script the stepper reads; it needs
// templates/figure.css, kf-words.js (WordsJS) and stepper.js (StepperJS) on
// the page.
//
// Frame encoding, chosen by measurement (Measure, Delta): a figure holds
// one inline SVG, the poster beat, containing the union of every beat's
// marks (those absent at the poster hidden), and a JSON list of tracks —
// for each field of each mark that ever changes, its value at beat 0 and
// each later change as (beats since the last change, new value); a mark
// standing at an offset (a high-watermark tick, a window base)
// records the offset rather than its coordinates and label (patch.go). The
// stepper shows any beat by setting each field to its value at that beat,
// so jumping is as cheap as stepping and nothing is replayed; a step to a
// neighbouring beat touches only the fields that change. What every figure
// shares stays out of it: the controls' markup and the phrases of the mark
// titles live in kf-words.js (words.go), and the poster's marks carry no
// <title> — the figure's JSON holds each title with its phrases reduced to
// two-character tokens, and the stepper writes the <title>s back. Readers
// without JavaScript get the poster (whose role="img" has the figure's
// title), the caption and the storyboard. Marks that move (cards, ticks)
// are tweened by the stepper unless the reader prefers reduced motion.
//
// Building a figure draws every beat and lines the marks up (unite in
// patch.go), keeping for each mark only the beats where it changes: a
// scenario at every limit has about 4,800 marks over 401 beats, most of
// them unchanged most beats. A beat is drawn in parts, each from its own
// slice of the beat's state (scene.go's drawFrame): the rail and its
// zones, the cards on it, the tally, each broker lane's header, and for
// each replica its row's label, role badge and note, ticks, log cells and
// share strips. A part whose slice is equal to the beat before's is not
// drawn again: it keeps the marks it had, which unite counts as standing
// without comparing them, and a row keeps the cells of the offsets its
// log still holds as they were. So drawing and lining up cost what
// changes, plus the beat counter, the group lanes and the messages on the
// wire, which are drawn afresh every beat. Beats are drawn on up to
// GOMAXPROCS (or Options.Workers) goroutines and merged in beat order on
// the caller's, so the output never depends on the schedule; each drawing
// goroutine remembers the verdict discs it drew and the strings of each
// replica's marks, so a part drawn again builds the strings of only the
// marks that changed.
//
// Keyboard: on a focused figure ←/→ step, Home/End jump, space plays or
// pauses, ↑/↓ move focus through the marks shown (each is announced by its
// title, also written out under the picture), Escape returns to the
// figure. A deep link #ID@BEAT opens the figure at that beat.
package svganim
