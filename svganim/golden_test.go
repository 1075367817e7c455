package svganim

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden from the current output")

// golden compares got with testdata/golden/name, or rewrites the file
// under -update. Read the diff of a rewrite before committing it.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./svganim -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) && i < len(wl); i++ {
			if gl[i] != wl[i] {
				t.Fatalf("%s differs from the golden file at line %d:\n got %s\nwant %s\n(go test ./svganim -update rewrites it; read the diff)", path, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s differs from the golden file in length: %d lines, want %d", path, len(gl), len(wl))
	}
}

// TestGolden pins the figure markup and the poster frame of the hand-told
// traces (independent of the engine) and of testdata's scenarios (they
// change when the engine's output does).
func TestGolden(t *testing.T) {
	cases := []namedTrace{{"hand-acks-one-loss", acksOneLoss()}, {"hand-groups", groupsTrace()}}
	cases = append(cases, testdataTraces(t)...)
	for _, nt := range cases {
		t.Run(nt.name, func(t *testing.T) {
			fig, err := Figure(nt.t, Options{ID: safeID(nt.name)})
			if err != nil {
				t.Fatal(err)
			}
			golden(t, nt.name+".figure.html", fig)
			frame, err := Frame(nt.t, PosterBeat(nt.t))
			if err != nil {
				t.Fatal(err)
			}
			golden(t, nt.name+".poster.svg", frame)
		})
	}
}

// TestDeterministic renders every trace twice, the second time from
// several goroutines at once, each with its own Options.Workers (1 to 4:
// the site's build draws with 1), and expects identical bytes.
func TestDeterministic(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	for _, nt := range allTraces(t) {
		first, err := Figure(nt.t, Options{ID: "d"})
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		outs := make([][]byte, 4)
		for i := range outs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				outs[i], _ = Figure(nt.t, Options{ID: "d", Workers: i + 1})
			}()
		}
		wg.Wait()
		for i, o := range outs {
			if !bytes.Equal(first, o) {
				t.Errorf("%s: render %d differs from the first", nt.name, i+2)
			}
		}
	}
}

var idAttr = regexp.MustCompile(` id="([^"]*)"`)

// TestFigureStructure checks what every figure must hold: unique ids, the
// poster shown, the view the stepper puts its controls after (the controls
// themselves come from kf-words.js, checked here too), the tracks, an
// aria-live caption, and a storyboard with one caption per beat; every
// frame well-formed XML.
func TestFigureStructure(t *testing.T) {
	for _, want := range []string{`data-a="first"`, `data-a="back"`, `data-a="play"`, `data-a="fwd"`, `data-a="last"`, `class="kf-scrub"`, `class="kf-speed"`, `data-a="link"`, `class="kf-explain"`} {
		if !strings.Contains(controlsHTML, want) {
			t.Errorf("the controls lack %s", want)
		}
	}
	for _, nt := range allTraces(t) {
		for _, full := range []bool{false, true} {
			fig, err := Figure(nt.t, Options{ID: "fig-1"})
			if full {
				fig = fullFrames(nt.t, "fig-1")
			}
			if err != nil {
				t.Fatal(err)
			}
			s := string(fig)
			seen := map[string]bool{}
			for _, m := range idAttr.FindAllStringSubmatch(s, -1) {
				if seen[m[1]] {
					t.Errorf("%s: id %q twice", nt.name, m[1])
				}
				seen[m[1]] = true
				if !isSafeID(m[1]) {
					t.Errorf("%s: id %q outside [a-z0-9-]", nt.name, m[1])
				}
			}
			for _, want := range []string{`class="kflow" id="fig-1"`, `aria-live="polite"`, `<details class="kf-story">`} {
				if !strings.Contains(s, want) {
					t.Errorf("%s: figure lacks %s", nt.name, want)
				}
			}
			if !full && (!strings.Contains(s, `<div class="kf-view">`) || !strings.Contains(s, `class="kf-tracks"`)) {
				t.Errorf("%s: figure lacks the view or the tracks", nt.name)
			}
			if n, want := strings.Count(s, "<li>"), len(nt.t.Beats); n != want {
				t.Errorf("%s: storyboard has %d captions, want %d", nt.name, n, want)
			}
			svgs := regexp.MustCompile(`(?s)<svg.*?</svg>`).FindAllString(s, -1)
			if full && len(svgs) != len(nt.t.Beats) || !full && len(svgs) != 1 {
				t.Errorf("%s (full frames %v): %d SVGs for %d beats", nt.name, full, len(svgs), len(nt.t.Beats))
			}
			for _, x := range svgs {
				parseXML(t, nt.name, []byte(x))
			}
			if full && strings.Count(s, `<div class="kf-frame">`) != 1 {
				t.Errorf("%s: %d frames visible, want only the poster", nt.name, strings.Count(s, `<div class="kf-frame">`))
			}
		}
	}
}
