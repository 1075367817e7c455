package sim

// AssignForTest exposes the consumer assignors to the external tests:
// name is "uniform" or "range", current the members' current targets.
func AssignForTest(name string, current [][]int, partitions int) [][]int {
	if name == "range" {
		return assignRange(len(current), partitions)
	}
	return assignUniform(current, partitions)
}
