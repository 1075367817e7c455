package scenario

import (
	"github.com/kafkaflow/kflowgen/sim"
	"github.com/kafkaflow/kflowgen/third_party/yaml"
)

// Presentation keys: they choose what a figure shows and never change the
// run. notes: gives some beats the author's own headline, poster: the
// beat the figure opens at (and shows without JavaScript).

// noteKeys are the keys of a notes entry, in the reference page's order.
var noteKeys = []string{"at", "text"}

func init() {
	sections[sectionNotes] = sectionInfo{noteKeys, "note field", "in a notes entry"}
}

// sectionNotes is a notes entry's section; it is not searched for
// misplaced keys (its keys are too common a word to suggest a move).
const sectionNotes section = 101

// notes reads the notes list: entries {at: BEAT, text: TEXT}, BEAT in
// 0..beats, TEXT one line of at most sim.MaxNoteText characters, at most
// one note per beat. The notes are kept in beat order.
func (p *parser) notes(n *yaml.Node) {
	firstAt := map[int]*yaml.Node{}
	for _, it := range p.entries(n, "notes", `entries such as {at: 5, text: "the leader crashes"}`) {
		if !p.mapping(it, "a notes entry", `{at: 5, text: "the leader crashes"}`) {
			continue
		}
		f := p.fields(it, sectionNotes)
		note := sim.Note{Pos: posOf(it)}
		ok := true
		if a, has := f["at"]; has {
			note.At, ok = p.beat(a.val, "at", 0)
			if prev, dup := firstAt[note.At]; ok && dup {
				p.errorf(a.val, "a second note for beat %d (the first is %s): a beat has one headline; merge the two", note.At, where(prev, a.val))
				ok = false
			} else if ok {
				firstAt[note.At] = a.val
			}
		} else {
			p.errorf(it, "this note has no beat: add one, such as \"at: 5\"")
			ok = false
		}
		if t, has := f["text"]; has {
			s, tok := p.text(t.val, "text", sim.MaxNoteText)
			if tok && s == "" {
				p.errorf(t.val, "text is empty: write the beat's headline, or remove the note")
				tok = false
			}
			note.Text, ok = s, ok && tok
		} else {
			p.errorf(it, "this note has no text: add the beat's headline, such as text: \"the leader crashes\"")
			ok = false
		}
		if ok {
			p.sc.Notes = append(p.sc.Notes, note)
		}
	}
	// Written in any order, kept in beat order (one per beat, so the
	// order is total).
	for i := 1; i < len(p.sc.Notes); i++ {
		for j := i; j > 0 && p.sc.Notes[j].At < p.sc.Notes[j-1].At; j-- {
			p.sc.Notes[j], p.sc.Notes[j-1] = p.sc.Notes[j-1], p.sc.Notes[j]
		}
	}
}

// poster reads the poster key: a beat in 0..beats.
func (p *parser) poster(n *yaml.Node) {
	if n == nil {
		return
	}
	if v, ok := p.beat(n, "poster", 0); ok {
		p.sc.Poster, p.sc.HasPoster = v, true
	}
}
