package svganim

import "testing"

// TestFitName: a member's name that fits is drawn whole; one that does
// not keeps its tail, which tells the group's members apart, within the
// room; where that tail is another member's too, the name stays whole.
func TestFitName(t *testing.T) {
	group := []string{"compute-analytics-1", "compute-analytics-2", "compute-analytics-10"}
	for _, c := range []struct {
		name   string
		others []string
		want   string
	}{
		{"readers-1", []string{"readers-1", "readers-2"}, "readers-1"},
		{"compute-analytics-1", group, "…alytics-1"},
		{"compute-analytics-10", group, "…lytics-10"},
		{"east-analytics-1", []string{"east-analytics-1", "west-analytics-1"}, "east-analytics-1"},
	} {
		got := fitName(c.name, c.others, memberNameRoom, true)
		if got != c.want {
			t.Errorf("fitName(%q) = %q, want %q", c.name, got, c.want)
		}
		if got != c.name && textW(got, true) > memberNameRoom {
			t.Errorf("fitName(%q) = %q is %d units wide, room %d", c.name, got, textW(got, true), memberNameRoom)
		}
	}
	// Every member of a group with long names gets a label of its own.
	seen := map[string]string{}
	for _, n := range group {
		l := fitName(n, group, memberNameRoom, true)
		if o, ok := seen[l]; ok {
			t.Errorf("%s and %s are both drawn %q", o, n, l)
		}
		seen[l] = n
	}
}

// TestFitHead: a group's name cut for its window flag keeps its head and
// fits the room; a name that fits stays whole; one character always stays.
func TestFitHead(t *testing.T) {
	for _, c := range []struct {
		name string
		room int
		want string
	}{
		{"workers", 100, "workers"},
		{"settlement-workers", 80, "settleme…"},
		{"settlement-workers", 1, "s…"},
	} {
		got := fitHead(c.name, c.room, true)
		if got != c.want {
			t.Errorf("fitHead(%q, %d) = %q, want %q", c.name, c.room, got, c.want)
		}
		if got != c.name && len(got) > len("s…") && textW(got, true) > c.room {
			t.Errorf("fitHead(%q, %d) = %q is %d units wide", c.name, c.room, got, textW(got, true))
		}
		// The longest head that fits: one more character would not.
		if head := []rune(got[:len(got)-len("…")]); got != c.name && len(head) < len([]rune(c.name)) && len(head) > 1 {
			if longer := string([]rune(c.name)[:len(head)+1]) + "…"; textW(longer, true) <= c.room {
				t.Errorf("fitHead(%q, %d) = %q, but %q fits too", c.name, c.room, got, longer)
			}
		}
	}
}
