package scenario

import (
	"os"
	"strings"
	"testing"
)

// The reference page's expect table is what authors read: every field an
// expect entry can assert appears, in backquotes, on a row that also names
// every selector its subject needs (TestReferenceListsEveryKey only asks
// that the page mention each key somewhere).
func TestReferenceExpectTable(t *testing.T) {
	b, err := os.ReadFile("../../content/reference.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	start := strings.Index(doc, "\n## expect\n")
	if start < 0 {
		t.Fatal("content/reference.md has no \"## expect\" section")
	}
	section := doc[start+1:]
	if end := strings.Index(section[1:], "\n## "); end >= 0 {
		section = section[:end+1]
	}
	var rows []string
	for _, line := range strings.Split(section, "\n") {
		if strings.HasPrefix(line, "| ") && !strings.HasPrefix(line, "| Subject") {
			rows = append(rows, line)
		}
	}
	for _, s := range subjects {
		for _, f := range s.fields {
			found := false
			for _, row := range rows {
				found = found || hasAll(row, append([]string{f}, s.selectors...))
			}
			if !found {
				t.Errorf("the expect table has no row naming %s's field %q with its selectors %v", s.name, f, s.selectors)
			}
		}
	}
}

func hasAll(row string, names []string) bool {
	for _, n := range names {
		if !strings.Contains(row, "`"+n+"`") {
			return false
		}
	}
	return true
}
