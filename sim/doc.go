// Package sim is Kafka Flow's engine: a deterministic, beat-based model of
// how Apache Kafka (4.1, KRaft) moves a record from a producer through a
// partition leader and its followers to consumers, consumer groups and
// KIP-932 share groups.
//
// A beat is the only unit of time. Run takes a Scenario and returns a Trace:
// the full state after every beat plus the events of each beat, in words.
// The package is pure: it imports only the standard library, does no I/O,
// reads no clock, starts no goroutines, and draws randomness only from a
// generator seeded by Scenario.Seed. The same Scenario always gives the same
// Trace.
//
// Within a beat the engine acts in one fixed order:
//
//  1. apply the timeline events scheduled for this beat;
//  2. the controller reacts: fences dead brokers, elects leaders from the
//     ISR in assignment order, bumps leader epochs, drives reassignments;
//  3. deliver every message due this beat, ordered by send beat then
//     sequence number;
//  4. leaders run their periodic checks (ISR expiry, parked acks=all
//     completion, request timeouts);
//  5. clients act: the producer sends while its in-flight budget allows;
//     consumers poll and commit; share members process and acknowledge;
//  6. the state is recorded.
//
// Every message takes one beat to cross. A user's mistake is reported by the
// parser (package sim/scenario) with its position; Run panics only when an
// internal invariant breaks, which is a bug.
package sim
