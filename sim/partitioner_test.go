package sim_test

import (
	"testing"

	"github.com/kafkaflow/kflowgen/sim"
)

// TestMurmur2Vectors checks Murmur2 against Kafka's UtilsTest.testMurmur2
// vectors and PartitionFor against the toPositive/modulo columns derived in
// KAFKA.md §2.2.
func TestMurmur2Vectors(t *testing.T) {
	cases := []struct {
		in              []byte
		hash            int32
		p3, p4, p6, p12 int
	}{
		{[]byte("21"), -973932308, 0, 0, 0, 0},
		{[]byte("foobar"), -790332482, 0, 2, 0, 6},
		{[]byte("a-little-bit-long-string"), -985981536, 2, 0, 2, 8},
		{[]byte("a-little-bit-longer-string"), -1486304829, 2, 3, 5, 11},
		{[]byte("lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8"), -58897971, 2, 1, 5, 5},
		{[]byte{'a', 'b', 'c'}, 479470107, 0, 3, 3, 3},
	}
	for _, c := range cases {
		if got := sim.Murmur2(c.in); got != c.hash {
			t.Errorf("Murmur2(%q) = %d, want %d", c.in, got, c.hash)
		}
		for _, pc := range []struct{ n, want int }{{3, c.p3}, {4, c.p4}, {6, c.p6}, {12, c.p12}} {
			if got := sim.PartitionFor(string(c.in), pc.n); got != pc.want {
				t.Errorf("PartitionFor(%q, %d) = %d, want %d", c.in, pc.n, got, pc.want)
			}
		}
	}
}

// TestPartitionForIsNotAbs checks the sign bit is cleared rather than the
// value negated: for "21" (hash −973932308) abs would give 973932308, whose
// residue mod 12 is 8, not 0.
func TestPartitionForIsNotAbs(t *testing.T) {
	h := sim.Murmur2([]byte("21"))
	if abs := int(-h) % 12; abs == sim.PartitionFor("21", 12) {
		t.Fatalf("PartitionFor matches abs(); test vector no longer distinguishes them")
	}
}
