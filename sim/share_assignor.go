package sim

// simpleAssign computes a share group's target assignment the way Kafka
// 4.1's SimpleAssignor does for a homogeneous group
// (SimpleHomogeneousAssignmentBuilder, KAFKA-19362): members is the member
// count M, partitions the assignable partition count P, and old[i] the
// partitions member i holds now (members in the group's fixed order; a
// partition at or above P no longer exists and is dropped). It returns each
// member's new partitions, ascending.
//
// The target is desiredSharing = ⌈M/P⌉ members per partition (1 whenever
// M ≤ P, so partitions are then exclusive). Member i should hold
// ⌈x·(i+1)⌉ − ⌈x·i⌉ partitions with x = desiredSharing·P/M; the counts sum
// to desiredSharing·P. The steps follow Kafka's: every member keeps what it
// holds; partitions shared by more than desiredSharing members are revoked,
// first from members above their count, then from the others; members
// still above their count give up their highest partitions; then the
// partitions are walked in order and each one short of desiredSharing is
// handed to members below their count, cycling through them and never
// giving a member the same partition twice. A partition that no such
// member can take stays under-shared (Kafka tolerates that imbalance too).
//
// Differences from Kafka, all about order: Kafka walks members, partitions
// and each member's partitions in hash-map order and computes x in floating
// point; Kafka Flow walks members in the group's order (member number),
// partitions ascending, and computes the counts exactly in integers.
func simpleAssign(members, partitions int, old [][]int) [][]int {
	out := make([][]int, members)
	if members == 0 || partitions == 0 {
		return out
	}
	sharing := desiredSharing(members, partitions)
	desired := make([]int, members)
	for i := range desired {
		desired[i] = ceilDiv(sharing*partitions*(i+1), members) - ceilDiv(sharing*partitions*i, members)
	}
	// holds[i][q] says member i holds partition q; byPart[q] lists the
	// members of q in member order.
	holds := make([][]bool, members)
	count := make([]int, members)
	byPart := make([][]int, partitions)
	for i := range holds {
		holds[i] = make([]bool, partitions)
		if i < len(old) {
			for _, q := range old[i] {
				if q >= 0 && q < partitions && !holds[i][q] {
					holds[i][q] = true
					count[i]++
				}
			}
		}
	}
	for q := 0; q < partitions; q++ {
		for i := 0; i < members; i++ {
			if holds[i][q] {
				byPart[q] = append(byPart[q], i)
			}
		}
	}
	overfilled := make([]bool, members)
	for i := range overfilled {
		overfilled[i] = count[i] > desired[i]
	}
	revoke := func(i, q int) {
		holds[i][q] = false
		count[i]--
		byPart[q] = without(byPart[q], i)
	}
	// Revoke over-shared partitions: overfilled members go first.
	for q := 0; q < partitions; q++ {
		for _, firstOverfilled := range []bool{true, false} {
			for _, i := range append([]int(nil), byPart[q]...) {
				if len(byPart[q]) <= sharing {
					break
				}
				if overfilled[i] == firstOverfilled {
					revoke(i, q)
				}
			}
		}
	}
	// Members still above their count give up their highest partitions.
	for i := 0; i < members; i++ {
		for q := partitions - 1; q >= 0 && count[i] > desired[i]; q-- {
			if holds[i][q] {
				revoke(i, q)
			}
		}
	}
	// Hand under-shared partitions to unfilled members, cycling through
	// them with one iterator across all partitions, as Kafka does.
	var unfilled []int
	for i := 0; i < members; i++ {
		if count[i] < desired[i] {
			unfilled = append(unfilled, i)
		}
	}
	pos, assignedThisPass := 0, false
	for q := 0; q < partitions && len(unfilled) > 0; q++ {
		for need := sharing - len(byPart[q]); need > 0 && len(unfilled) > 0; {
			if pos >= len(unfilled) {
				if !assignedThisPass {
					break // no unfilled member can take q
				}
				pos, assignedThisPass = 0, false
			}
			i := unfilled[pos]
			pos++
			if holds[i][q] {
				continue
			}
			holds[i][q] = true
			count[i]++
			byPart[q] = append(byPart[q], i)
			need--
			assignedThisPass = true
			if count[i] >= desired[i] {
				pos--
				unfilled = append(unfilled[:pos:pos], unfilled[pos+1:]...)
			}
		}
	}
	for i := range out {
		out[i] = []int{}
		for q := 0; q < partitions; q++ {
			if holds[i][q] {
				out[i] = append(out[i], q)
			}
		}
	}
	return out
}

// desiredSharing is SimpleAssignor's target number of members per
// partition: ⌈members/partitions⌉ (0 without partitions).
func desiredSharing(members, partitions int) int {
	if partitions == 0 {
		return 0
	}
	return ceilDiv(members, partitions)
}

// ceilDiv is ⌈a/b⌉ for a ≥ 0, b > 0.
func ceilDiv(a, b int) int { return (a + b - 1) / b }
