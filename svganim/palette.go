package svganim

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Palette is the number of key colours a figure can tell apart: the eight
// colours of the Okabe–Ito palette, which stay distinct under the common
// forms of colour blindness. figure.css defines them as --kf-k0 … --kf-k7;
// a mark of key slot i carries the CSS class "k<i>". The scenario parser
// caps a producer at sim.MaxKeys keys, which equals Palette.
const Palette = 8

// paletteNames names the colour of each slot as a reader would say it, in
// slot order: k0 blue, k1 bluish green, k2 orange, k3 sky blue,
// k4 vermillion, k5 reddish purple, k6 yellow, k7 grey. The order is chosen
// so that the engine's default keys (blue, green, orange) land on the colour
// they are named after even without the name match in KeyStyles.
var paletteNames = [Palette][]string{
	{"blue"},
	{"green", "bluish-green", "teal"},
	{"orange", "amber"},
	{"sky", "skyblue", "sky-blue", "cyan", "lightblue", "light-blue"},
	{"red", "vermillion", "vermilion", "scarlet"},
	{"purple", "pink", "magenta", "violet", "reddish-purple"},
	{"yellow", "gold"},
	{"grey", "gray", "black", "silver"},
}

// KeyStyle is how a figure draws one producer key: Slot is its colour slot
// (0 … Palette-1, the CSS class "k<Slot>") and Label its second cue besides
// colour, a short text (one to three characters) drawn on every cell and
// card of the key and unique among the trace's keys.
type KeyStyle struct {
	Key   string
	Slot  int
	Label string
	// Short is the key as the legend shows it: the key itself up to
	// shortKeyMax characters, else its first shortKeyHead characters and
	// "…" (a 36-character UUID key would crowd the legend out).
	Short string
}

// The legend's abbreviation of long keys, in characters.
const (
	shortKeyMax  = 12
	shortKeyHead = 8
)

// shortKey abbreviates key for the legend (KeyStyle.Short).
func shortKey(key string) string {
	r := []rune(key)
	if len(r) <= shortKeyMax {
		return key
	}
	return string(r[:shortKeyHead]) + "…"
}

// KeyStyles assigns a colour slot and a label to each key, in the order
// given (sim.Trace.Keys: first use). A key named after a palette colour
// ("blue", "Orange", "grey") gets that colour when no earlier key took it;
// every other key gets the lowest free slot, so the result depends only on
// the key list. Beyond Palette keys the slots repeat (the label still tells
// keys apart). Labels are the shortest upper-cased prefix, up to three
// characters, that no other key shares; a key without one is labelled by
// its position (1-based).
func KeyStyles(keys []string) []KeyStyle {
	out := make([]KeyStyle, len(keys))
	var taken [Palette]bool
	for i := range out {
		out[i] = KeyStyle{Key: keys[i], Slot: -1, Short: shortKey(keys[i])}
	}
	for i, k := range keys {
		if s := namedSlot(k); s >= 0 && !taken[s] {
			out[i].Slot = s
			taken[s] = true
		}
	}
	next := 0
	for i := range out {
		if out[i].Slot >= 0 {
			continue
		}
		for next < Palette && taken[next] {
			next++
		}
		if next < Palette {
			out[i].Slot = next
			taken[next] = true
		} else {
			out[i].Slot = i % Palette
		}
	}
	for i, k := range keys {
		out[i].Label = uniqueLabel(k, i, keys)
	}
	return out
}

// namedSlot returns the palette slot whose colour the key names, or -1.
func namedSlot(key string) int {
	k := strings.ToLower(strings.TrimSpace(key))
	k = strings.ReplaceAll(k, " ", "-")
	k = strings.ReplaceAll(k, "_", "-")
	for s, names := range paletteNames {
		for _, n := range names {
			if k == n {
				return s
			}
		}
	}
	return -1
}

// uniqueLabel returns the shortest prefix (1 … 3 letters or digits,
// upper-cased) of keys[i] that no other key in keys starts with the same
// way, or the key's 1-based position when there is none.
func uniqueLabel(key string, i int, keys []string) string {
	for n := 1; n <= 3; n++ {
		p := labelPrefix(key, n)
		if p == "" || utf8.RuneCountInString(p) < n {
			break
		}
		clash := false
		for j, other := range keys {
			if j != i && labelPrefix(other, n) == p {
				clash = true
				break
			}
		}
		if !clash {
			return p
		}
	}
	return itoa(i + 1)
}

// labelPrefix is the first n letters or digits of s, upper-cased.
func labelPrefix(s string, n int) string {
	var b strings.Builder
	got := 0
	for _, r := range s {
		if got == n {
			break
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToUpper(r))
			got++
		}
	}
	return b.String()
}
