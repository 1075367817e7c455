package sim

import (
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// referenceSection returns the Markdown table rows of one `## heading`
// section of the guide's trace reference page (content/trace.md, where
// the trace's fields, events and messages are documented), each split
// into trimmed cells; rows whose first cell is not a `code` span
// (headers, rules) are left out.
func referenceSection(t *testing.T, heading string) [][]string {
	t.Helper()
	b, err := os.ReadFile("../content/trace.md")
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
		t.Fatalf("trace.md has no table rows under ## %s", heading)
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
func fieldNames[T any](fs []field[T]) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.name
	}
	return out
}

// TestReferenceListsEveryEventKind keeps the trace reference page's event tables
// equal to kindFields: one row per kind, in the same order, naming the
// fields the kind always carries and, in the third column, those it
// carries only sometimes; every reason the kind allows is named in its
// row; and every field any kind carries has a row in the field table,
// which lists no other.
func TestReferenceListsEveryEventKind(t *testing.T) {
	checkKindTables(t, "Events", kindFields, nil)
}

// TestReferenceListsEveryMessageKind does the same for the messages of
// the trace and messageFields; `dropped` is every message's.
func TestReferenceListsEveryMessageKind(t *testing.T) {
	checkKindTables(t, "Messages", messageFields, []string{"dropped"})
}

// checkKindTables checks the two tables under ## heading: the kind table
// (four columns: kind, fields, optional fields with their conditions, what
// it is) against specs, and the field table (two columns) against the
// fields the specs use plus common.
func checkKindTables[K ~string, T any](t *testing.T, heading string, specs []kindSpec[K, T], common []string) {
	rows := referenceSection(t, heading)
	var kindRows, fieldRows [][]string
	for _, r := range rows {
		if len(r) == 4 {
			kindRows = append(kindRows, r)
		} else {
			fieldRows = append(fieldRows, r)
		}
	}
	var pageKinds, codeKinds []string
	for _, r := range kindRows {
		pageKinds = append(pageKinds, strings.Trim(r[0], "`"))
	}
	used := map[string]bool{}
	for _, name := range common {
		used[name] = true
	}
	bySpec := map[string]*kindSpec[K, T]{}
	for i := range specs {
		s := &specs[i]
		codeKinds = append(codeKinds, string(s.kind))
		bySpec[string(s.kind)] = s
		for _, name := range append(fieldNames(s.fields), s.optionalNames()...) {
			used[name] = true
		}
	}
	if !slices.Equal(pageKinds, codeKinds) {
		t.Errorf("trace.md lists %s kinds\n%v\nbut the engine has\n%v", heading, pageKinds, codeKinds)
	}
	for _, r := range kindRows {
		s := bySpec[strings.Trim(r[0], "`")]
		if s == nil {
			continue
		}
		if got, want := spans(r[1]), fieldNames(s.fields); !slices.Equal(got, want) {
			t.Errorf("trace.md: %s carries %v, the engine %v", s.kind, got, want)
		}
		if want := s.optionalNames(); !subsequence(want, spans(r[2])) || (len(want) == 0 && r[2] != "") {
			t.Errorf("trace.md: %s carries %q only sometimes, the engine %v", s.kind, r[2], want)
		}
		for _, reason := range s.reasons {
			if !slices.Contains(spans(r[3]), reason) {
				t.Errorf("trace.md: %s row does not name reason %q", s.kind, reason)
			}
		}
	}
	documented := map[string]bool{}
	for _, r := range fieldRows {
		for _, name := range spans(r[0]) {
			documented[name] = true
			if !used[name] {
				t.Errorf("trace.md documents %s field %q, which no kind carries", heading, name)
			}
		}
	}
	for name := range used {
		if !documented[name] {
			t.Errorf("trace.md has no row for %s field %q", heading, name)
		}
	}
}

// subsequence reports whether want appears in got in order (the third
// column names the optional fields, each group followed by its condition
// in words, which may hold code spans of its own).
func subsequence(want, got []string) bool {
	i := 0
	for _, g := range got {
		if i < len(want) && g == want[i] {
			i++
		}
	}
	return i == len(want)
}

// jsonNames lists the JSON field names of struct value v, in field order.
func jsonNames(v any) []string {
	var out []string
	rt := reflect.TypeOf(v)
	for i := 0; i < rt.NumField(); i++ {
		name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}

// TestReferenceListsPartitionFields keeps the trace reference page's table of a
// beat's partitions equal to Partition: every field the trace writes has
// a row, no row names a field it does not write, and the `replicas` row
// names every field of Replica.
func TestReferenceListsPartitionFields(t *testing.T) {
	var rows [][]string
	for _, r := range referenceSection(t, "What kflowgen sim prints") {
		if len(r) == 2 {
			rows = append(rows, r)
		}
	}
	// The partition table starts at its `partition` row and ends before
	// the groups table's `group` row.
	start, end := -1, len(rows)
	for i, r := range rows {
		if start < 0 && slices.Equal(spans(r[0]), []string{"partition"}) {
			start = i
		}
		if start >= 0 && slices.Contains(spans(r[0]), "group") {
			end = i
			break
		}
	}
	if start < 0 {
		t.Fatal("trace.md has no `partition` row in its trace section")
	}
	var page []string
	var replicas string
	for _, r := range rows[start:end] {
		page = append(page, spans(r[0])...)
		if slices.Equal(spans(r[0]), []string{"replicas"}) {
			replicas = r[1]
		}
	}
	code := jsonNames(Partition{})
	for _, name := range code {
		if !slices.Contains(page, name) {
			t.Errorf("trace.md has no row for the partition field %q", name)
		}
	}
	for _, name := range page {
		if !slices.Contains(code, name) {
			t.Errorf("trace.md documents a partition field %q the trace does not write", name)
		}
	}
	for _, name := range jsonNames(Replica{}) {
		if !slices.Contains(spans(replicas), name) {
			t.Errorf("trace.md's `replicas` row does not name the replica field %q", name)
		}
	}
}

// TestReferenceTraceOnItsOwnPage keeps the trace contract in one place:
// the scenario reference page (content/reference.md) has none of the
// trace's sections, whose tables the tests above check only on
// content/trace.md, and the two pages link to each other.
func TestReferenceTraceOnItsOwnPage(t *testing.T) {
	ref, err := os.ReadFile("../content/reference.md")
	if err != nil {
		t.Fatal(err)
	}
	trace, err := os.ReadFile("../content/trace.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"What kflowgen sim prints", "Events", "Messages"} {
		if !strings.Contains(string(trace), "\n## "+h+"\n") {
			t.Errorf("trace.md has no ## %s section", h)
		}
		if strings.Contains(string(ref), "\n## "+h+"\n") {
			t.Errorf("reference.md has a ## %s section: the trace is documented on trace.md, where it is tested", h)
		}
	}
	for _, row := range []string{"| `append` |", "| `fetch-response` |", "| `leaderEpochStartOffset` |"} {
		if strings.Contains(string(ref), row) {
			t.Errorf("reference.md holds the trace row %q, which only trace.md's tests check", row)
		}
	}
	if !strings.Contains(string(ref), "](trace.md)") {
		t.Error("reference.md does not link to trace.md")
	}
	if !strings.Contains(string(trace), "](reference.md") {
		t.Error("trace.md does not link to reference.md")
	}
}
