package sim

import "slices"

// This file holds the two server-side assignors of a KIP-848 consumer
// group (group.consumer.assignors = [uniform, range], the first the
// default). Both see one topic, since a Kafka Flow scenario has one, and
// the members in one fixed order: sorted by member name, numbers compared
// as numbers (GROUP-2 before GROUP-10). Kafka iterates a hash map, so a
// real cluster may hand the extra partitions to other members; the guide
// says so.

// assignUniform computes the target assignment of Kafka's UniformAssignor
// for homogeneous subscriptions (UniformHomogeneousAssignmentBuilder):
//
//   - with P partitions and M members, every member's quota is ⌊P/M⌋ and
//     the first P mod M members (in member order) get one more;
//   - each member keeps the partitions of its current target, lowest
//     first, up to its quota; the rest of them are revoked;
//   - the unassigned list is every partition no member keeps from its
//     current target, ascending, followed by the revoked ones in member
//     order; members below quota are then filled from the front of that
//     list, in member order.
//
// current[i] is member i's current target; partitions at or beyond
// partitions are ignored (they no longer exist). The result has one sorted
// list per member, every partition in exactly one of them.
func assignUniform(current [][]int, partitions int) [][]int {
	m := len(current)
	out := make([][]int, m)
	if m == 0 {
		return out
	}
	quota := func(i int) int {
		q := partitions / m
		if i < partitions%m {
			q++
		}
		return q
	}
	held := make([]bool, partitions)
	for _, ps := range current {
		for _, p := range ps {
			if p >= 0 && p < partitions {
				held[p] = true
			}
		}
	}
	var unassigned, revoked []int
	for p := 0; p < partitions; p++ {
		if !held[p] {
			unassigned = append(unassigned, p)
		}
	}
	taken := make([]bool, partitions)
	for i, ps := range current {
		own := slices.Clone(ps)
		slices.Sort(own)
		for _, p := range own {
			if p < 0 || p >= partitions || taken[p] {
				continue
			}
			if len(out[i]) < quota(i) {
				out[i] = append(out[i], p)
				taken[p] = true
			} else {
				revoked = append(revoked, p)
			}
		}
	}
	unassigned = append(unassigned, revoked...)
	next := 0
	for i := range out {
		for len(out[i]) < quota(i) && next < len(unassigned) {
			if p := unassigned[next]; !taken[p] {
				out[i] = append(out[i], p)
				taken[p] = true
			}
			next++
		}
		slices.Sort(out[i])
	}
	return out
}

// assignRange computes the target assignment of KIP-848's RangeAssignor
// (group-coordinator assignor.RangeAssignor), which is not sticky: with P
// partitions and M members, member i (in member order) gets the contiguous
// range starting at ⌊P/M⌋·i + min(i, P mod M), of length ⌊P/M⌋, plus one
// while i < P mod M.
func assignRange(members, partitions int) [][]int {
	out := make([][]int, members)
	if members == 0 {
		return out
	}
	q, extra := partitions/members, partitions%members
	for i := range out {
		start := q*i + min(i, extra)
		n := q
		if i < extra {
			n++
		}
		for p := start; p < start+n; p++ {
			out[i] = append(out[i], p)
		}
	}
	return out
}
