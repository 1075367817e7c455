package sim

// Event is one thing that happened in a beat, in structured form. Its
// canonical text (String) is the single wording used by the trace's
// `events`, figure captions and golden files, so changing how an event reads
// is one edit here.
type Event struct {
	// Kind names what happened, e.g. "append", "ack", "isr-shrink".
	Kind string
	// Broker, Partition, Record, Member and Group say who and what; zero
	// values mean "not involved" (Partition uses -1 for none).
	Broker    int
	Partition int
	Record    int
	Group     string
	Member    string
	// Offset, Epoch and Value carry numbers the text needs.
	Offset int64
	Epoch  int
	Value  int64
	// Detail is extra wording (an error code, a list of brokers).
	Detail string
}

// String returns the event's canonical text.
func (e Event) String() string {
	return describe(e)
}
