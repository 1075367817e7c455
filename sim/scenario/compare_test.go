package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompare parses every testdata/compare/*.yaml with ParseCompare and
// compares the dump of the base and of the variant with the .golden file
// beside it: the golden shows what the merge kept, replaced and added, and
// which expect entries went to which run.
func TestCompare(t *testing.T) {
	files, _ := filepath.Glob("testdata/compare/*.yaml")
	if len(files) == 0 {
		t.Fatal("no testdata/compare/*.yaml")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			base, variant, errs := ParseCompare(src)
			if errs != nil {
				t.Fatalf("unexpected errors:\n%s", joinErrors(errs))
			}
			if variant == nil {
				t.Fatal("no variant from a fence with compare")
			}
			checkPositions(t, src, base)
			checkPositions(t, src, variant)
			if variant.ID != base.ID {
				t.Errorf("variant id %q, want the fence's %q", variant.ID, base.ID)
			}
			// Parse gives the base alone, the same scenario.
			only, errs := Parse(src)
			if errs != nil || dump(only) != dump(base) {
				t.Errorf("Parse differs from ParseCompare's base:\n%s\nvs\n%s", dump(only), dump(base))
			}
			got := "base:\n" + dump(base) + "variant:\n" + dump(variant)
			golden := strings.TrimSuffix(file, ".yaml") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if got != string(want) {
				t.Errorf("parse of %s differs from %s:\n got:\n%s\nwant:\n%s", file, golden, got, want)
			}
		})
	}
}

// TestCompareAbsent checks that a fence without compare has no variant and
// that every good scenario parses to the same base either way.
func TestCompareAbsent(t *testing.T) {
	files, _ := filepath.Glob("testdata/good/*.yaml")
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		base, variant, errs := ParseCompare(src)
		if errs != nil || variant != nil {
			t.Errorf("%s: ParseCompare gave a variant or errors: %v", file, errs)
			continue
		}
		only, _ := Parse(src)
		if dump(only) != dump(base) {
			t.Errorf("%s: Parse and ParseCompare disagree", file)
		}
	}
}

// TestMergeLeavesInputs checks that merging never changes the base tree or
// the overrides, so the base scenario is read from the text as written.
func TestMergeLeavesInputs(t *testing.T) {
	src := []byte("id: m\nproducer: {acks: 1, records: 4}\ntimeline: [{at: 2, crash: 1}]\ncompare:\n  title: t\n  producer: {acks: all}\n  timeline: []\n")
	base, variant, errs := ParseCompare(src)
	if errs != nil {
		t.Fatal(joinErrors(errs))
	}
	if base.Producer.Acks != 1 || variant.Producer.Acks != -1 {
		t.Errorf("acks: base %s, variant %s; want 1 and all", base.Producer.Acks, variant.Producer.Acks)
	}
	if base.Producer.Records != 4 || variant.Producer.Records != 4 {
		t.Errorf("records: base %d, variant %d; the variant keeps what compare does not change", base.Producer.Records, variant.Producer.Records)
	}
	if len(base.Timeline) != 1 || len(variant.Timeline) != 0 {
		t.Errorf("timeline: base %d entries, variant %d; a list under compare replaces the fence's", len(base.Timeline), len(variant.Timeline))
	}
	if base.Title != "" || variant.Title != "t" {
		t.Errorf("titles %q and %q", base.Title, variant.Title)
	}
}
