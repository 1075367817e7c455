package sim

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// referenceSection returns the Markdown table rows of one `## heading`
// section of the guide's reference page, each split into trimmed cells;
// rows whose first cell is not a `code` span (headers, rules) are left out.
func referenceSection(t *testing.T, heading string) [][]string {
	t.Helper()
	b, err := os.ReadFile("../content/reference.md")
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]string
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "## ") {
			in = line == "## "+heading
			continue
		}
		if !in || !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		rows = append(rows, cells)
	}
	if len(rows) == 0 {
		t.Fatalf("reference.md has no table rows under ## %s", heading)
	}
	return rows
}

var codeSpan = regexp.MustCompile("`([^`]*)`")

// spans returns the code spans of a cell, in order.
func spans(cell string) []string {
	var out []string
	for _, m := range codeSpan.FindAllStringSubmatch(cell, -1) {
		out = append(out, m[1])
	}
	return out
}

// fieldNames lists the JSON names of fs.
func fieldNames(fs []field) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.name
	}
	return out
}

// TestReferenceListsEveryEventKind keeps the reference page's event tables
// equal to kindFields: one row per kind, in the same order, naming the
// fields the kind always carries and, in the third column, those it
// carries only sometimes; every reason the kind allows is named in its
// row; and every field any kind carries has a row in the field table,
// which lists no other.
func TestReferenceListsEveryEventKind(t *testing.T) {
	rows := referenceSection(t, "Events")
	var kindRows, fieldRows [][]string
	for _, r := range rows {
		if len(r) == 4 {
			kindRows = append(kindRows, r)
		} else {
			fieldRows = append(fieldRows, r)
		}
	}
	var pageKinds []string
	for _, r := range kindRows {
		pageKinds = append(pageKinds, strings.Trim(r[0], "`"))
	}
	var codeKinds []string
	used := map[string]bool{}
	for _, s := range kindFields {
		codeKinds = append(codeKinds, string(s.kind))
		for _, f := range append(slices.Clone(s.fields), s.optional...) {
			used[f.name] = true
		}
	}
	if !slices.Equal(pageKinds, codeKinds) {
		t.Errorf("reference.md lists event kinds\n%v\nbut the engine has\n%v", pageKinds, codeKinds)
	}
	for _, r := range kindRows {
		s := specOf(Kind(strings.Trim(r[0], "`")))
		if s == nil {
			continue
		}
		if got, want := spans(r[1]), fieldNames(s.fields); !slices.Equal(got, want) {
			t.Errorf("reference.md: %s carries %v, the engine %v", s.kind, got, want)
		}
		// The third column names the optional fields first, then maybe a
		// condition in words with code spans of its own.
		opt := spans(r[2])
		want := fieldNames(s.optional)
		if len(opt) < len(want) || !slices.Equal(opt[:len(want)], want) || (len(want) == 0 && r[2] != "") {
			t.Errorf("reference.md: %s carries %q only sometimes, the engine %v", s.kind, r[2], want)
		}
		for _, reason := range s.reasons {
			if !slices.Contains(spans(r[3]), reason) {
				t.Errorf("reference.md: %s row does not name reason %q", s.kind, reason)
			}
		}
	}
	documented := map[string]bool{}
	for _, r := range fieldRows {
		for _, name := range spans(r[0]) {
			documented[name] = true
			if !used[name] {
				t.Errorf("reference.md documents event field %q, which no kind carries", name)
			}
		}
	}
	for name := range used {
		if !documented[name] {
			t.Errorf("reference.md has no row for event field %q", name)
		}
	}
}
