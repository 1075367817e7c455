package svganim

import (
	"bytes"
	"encoding/json"
	"html/template"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// figureTemplate is the html/template the figure's markup was written
// with before figData.write replaced it (to keep html/template out of the
// playground's WebAssembly). It stays here as the reference the hand
// written markup must equal, escaping included.
var figureTemplate = template.Must(template.New("figure").Parse(`<figure class="kflow" id="{{.ID}}" data-last="{{.Last}}" data-poster="{{.Poster}}" data-open="{{.Open}}" tabindex="0" aria-labelledby="{{.ID}}-t">
<figcaption class="kf-title" id="{{.ID}}-t">{{.Title}}</figcaption>
<div class="kf-view">
{{- .SVG -}}
</div>
{{- if .Keys}}
<div class="kf-legend" role="group" aria-label="keys: press one to isolate it">
{{- range .Keys}}<button type="button" class="kf-key k{{.Slot}}" data-k="{{.Slot}}" aria-pressed="false"{{if ne .Short .Key}} title="{{.Key}}" aria-label="key {{.Key}}"{{end}}><span class="kf-sw">{{.Label}}</span> {{.Short}}</button>{{end -}}
</div>
{{- end}}
<div class="kf-capbox"><div class="kf-caption" aria-live="polite">{{.Caption}}</div></div>
<details class="kf-story"><summary>The whole story, beat by beat</summary>
<ol start="0">
{{- range .Story}}<li>{{.}}</li>{{end -}}
</ol></details>
<script type="application/json" class="kf-tracks">{{.Tracks}}</script>
</figure>
`))

// nasty draws strings rich in what escaping is about: markup and quote
// characters, '+', NUL and other control bytes, U+2028, U+FDD0, U+FFFF,
// invalid UTF-8, and ordinary text.
func nasty(t *rapid.T, label string) string {
	parts := rapid.SliceOfN(rapid.SampledFrom([]string{
		"<", ">", "&", "'", `"`, "+", "\x00", "\x01", "\x1f", "\t", "\n", "\r", "\b", "\f", `\`, "/",
		"\u2028", "\u2029", "\ufdd0", "\uffff", "\xff", "\xe2\x80", "é", "—", "a", "key ", "<script>", "&amp;",
	}), 0, 12).Draw(t, label)
	return strings.Join(parts, "") + rapid.String().Draw(t, label+"-tail")
}

// TestFigureMarkupIsTheTemplates writes random figure data both ways and
// wants the same bytes: the legend with and without keys, keys whose short
// form differs, every kind of character in every text.
func TestFigureMarkupIsTheTemplates(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		d := figData{
			ID:     nasty(rt, "id"),
			Title:  nasty(rt, "title"),
			Last:   rapid.IntRange(-3, 500).Draw(rt, "last"),
			Poster: rapid.Int().Draw(rt, "poster"),
			Open:   rapid.IntRange(0, 50).Draw(rt, "open"),
			// Markup parts go in as they are in both.
			Caption: nasty(rt, "caption"),
			SVG:     []byte(nasty(rt, "svg")),
			Tracks:  []byte(nasty(rt, "tracks")),
		}
		for i, n := 0, rapid.IntRange(0, 3).Draw(rt, "stories"); i < n; i++ {
			d.Story = append(d.Story, nasty(rt, "story"))
		}
		for i, n := 0, rapid.IntRange(0, 3).Draw(rt, "keys"); i < n; i++ {
			k := KeyStyle{Key: nasty(rt, "key"), Slot: rapid.IntRange(-1, 12).Draw(rt, "slot"), Label: nasty(rt, "label")}
			k.Short = k.Key
			if rapid.Bool().Draw(rt, "short differs") {
				k.Short = nasty(rt, "short")
			}
			d.Keys = append(d.Keys, k)
		}
		var story []template.HTML
		for _, s := range d.Story {
			story = append(story, template.HTML(s))
		}
		var want bytes.Buffer
		if err := figureTemplate.Execute(&want, struct {
			ID, Title          string
			Last, Poster, Open int
			Caption            template.HTML
			Story              []template.HTML
			SVG                template.HTML
			Tracks             template.JS
			Keys               []KeyStyle
		}{d.ID, d.Title, d.Last, d.Poster, d.Open, template.HTML(d.Caption), story, template.HTML(string(d.SVG)), template.JS(d.Tracks), d.Keys}); err != nil {
			rt.Fatal(err)
		}
		var got bytes.Buffer
		d.write(&got)
		if got.String() != want.String() {
			rt.Fatalf("hand-written markup differs from the template's at byte %d:\n got %q\nwant %q",
				diffAt(got.String(), want.String()), got.String(), want.String())
		}
	})
}

func diffAt(a, b string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestEscapers checks escapeCaption against text/template's
// HTMLEscapeString (what captions were escaped with) and escapeText
// against html/template's contextual escaping of a plain string in a text
// node and in a quoted attribute.
func TestEscapers(t *testing.T) {
	attr := template.Must(template.New("a").Parse(`<b title="{{.}}">{{.}}</b>`))
	rapid.Check(t, func(rt *rapid.T) {
		s := nasty(rt, "s")
		if got, want := escapeCaption(s), template.HTMLEscapeString(s); got != want {
			rt.Fatalf("escapeCaption(%q) = %q, HTMLEscapeString %q", s, got, want)
		}
		var want bytes.Buffer
		if err := attr.Execute(&want, s); err != nil {
			rt.Fatal(err)
		}
		e := escapeText(s)
		if got := `<b title="` + e + `">` + e + `</b>`; got != want.String() {
			rt.Fatalf("escapeText(%q) = %q, html/template wrote %q", s, e, want.String())
		}
	})
	// The differences that matter, spelled out.
	if got := escapeText("a+b<c>\x00'\"&"); got != "a&#43;b&lt;c&gt;\uFFFD&#39;&#34;&amp;" {
		t.Errorf("escapeText = %q", got)
	}
	if got := escapeCaption("a+b"); got != "a+b" {
		t.Errorf("escapeCaption keeps '+': %q", got)
	}
}

// TestFigureJSON checks the hand-written tracks JSON against
// encoding/json, for titles and tracks of ints and strings of every kind
// (HTML characters, control bytes, U+2028, invalid UTF-8), nil titles, no
// tracks and empty tracks included, tracks written by trackJSON and joined
// as two panels' are (joinTracks), and appendJSONString of bytes against
// the same string's.
func TestFigureJSON(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		var titles []string
		if rapid.Bool().Draw(rt, "titles") {
			titles = []string{}
			for i, n := 0, rapid.IntRange(0, 4).Draw(rt, "n titles"); i < n; i++ {
				titles = append(titles, nasty(rt, "title"))
			}
		}
		// Tracks written as encode writes them, a panel's joined to the
		// one before (an empty panel has none).
		var tracks [][]any
		var panels [2][]byte
		for i, n := 0, rapid.IntRange(0, 4).Draw(rt, "n tracks"); i < n; i++ {
			tr := []any{}
			var js trackJSON
			for j, m := 0, rapid.IntRange(0, 6).Draw(rt, "n values"); j < m; j++ {
				if rapid.Bool().Draw(rt, "int") {
					v := rapid.Int().Draw(rt, "v")
					tr, js = append(tr, v), js.int(v)
				} else {
					v := nasty(rt, "v")
					tr, js = append(tr, v), js.str(v)
				}
			}
			tracks = append(tracks, tr)
			p := rapid.IntRange(0, 1).Draw(rt, "panel")
			if p == 0 && len(panels[1]) > 0 {
				p = 1 // panels are in order: the tracks go to the second now
			}
			panels[p] = joinTracks(panels[p], js.end())
		}
		want, err := json.Marshal(struct {
			T []string `json:"t"`
			K [][]any  `json:"k"`
		}{titles, append([][]any{}, tracks...)})
		if err != nil {
			rt.Fatal(err)
		}
		if got := figureJSON(titles, joinTracks(panels[0], panels[1])); string(got) != string(want) {
			rt.Fatalf("figureJSON = %s\nencoding/json %s", got, want)
		}
		// Bytes are written as the string of them is (KnobAsset's markup).
		for _, s := range titles {
			if got, want := appendJSONString(nil, []byte(s)), appendJSONString(nil, s); string(got) != string(want) {
				rt.Fatalf("appendJSONString of the bytes of %q = %s, of the string %s", s, got, want)
			}
		}
	})
}

// TestScriptChars: a variant script's string is what encoding/json writes
// with HTML escaping off, so < > & stay as they are while quotes,
// backslashes, control bytes, U+2028/U+2029 and bad UTF-8 are escaped as
// before, and it reads back as the markup it was made of.
func TestScriptChars(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		s := rapid.StringOf(rapid.SampledFrom([]rune{'<', '>', '&', '"', '\\', '\n', '\t', 0x01, 'a', ' ', '/', 'é', 0x2028, 0x2029, '\u00a0'})).Draw(rt, "s")
		var b bytes.Buffer
		e := json.NewEncoder(&b)
		e.SetEscapeHTML(false)
		if err := e.Encode(s); err != nil {
			rt.Fatal(err)
		}
		want := strings.TrimSuffix(b.String(), "\n")
		got := `"` + string(appendScriptChars(nil, []byte(s))) + `"`
		if got != want {
			rt.Fatalf("appendScriptChars(%q) = %s, encoding/json without HTML escaping %s", s, got, want)
		}
		var back string
		if err := json.Unmarshal([]byte(got), &back); err != nil || back != s {
			rt.Fatalf("%s reads back as %q (%v), want %q", got, back, err, s)
		}
	})
	// Invalid UTF-8 is replaced, as appendJSONChars replaces it.
	if got, want := string(appendScriptChars(nil, []byte("a\xffb<"))), `a\ufffdb<`; got != want {
		t.Errorf("appendScriptChars of bad UTF-8 = %s, want %s", got, want)
	}
}
