package sim

import (
	"strconv"
	"strings"
)

// describe is the canonical wording of an event: the trace's `events`,
// figure captions and golden files all use it. Sentences are short and use
// Kafka's terms; partitions are written p0, p1, ….
func describe(e Event) string {
	p := "p" + strconv.Itoa(e.Partition)
	b := "broker " + strconv.Itoa(e.Broker)
	rec := "record " + strconv.Itoa(e.Record)
	i64 := func(v int64) string { return strconv.FormatInt(v, 10) }
	switch e.Kind {
	case "create":
		return "producer created " + rec + " (key " + e.Detail + " → " + p + ")"
	case "send":
		s := "producer sent " + rec + " to " + b + ", leader of " + p
		if e.Value > 1 {
			s += " (attempt " + i64(e.Value) + ")"
		}
		return s
	case "append":
		return b + " appended " + rec + " to " + p + " at offset " + i64(e.Offset) + " (epoch " + strconv.Itoa(e.Epoch) + ")"
	case "refuse":
		return b + " refused " + rec + " for " + p + ": NOT_ENOUGH_REPLICAS (ISR " + e.Detail +
			" below min.insync.replicas " + i64(e.Value) + ")"
	case "hw":
		if e.Detail != "" {
			return p + " high watermark " + i64(e.Offset) + " → " + i64(e.Value) + ": " + e.Detail
		}
		return p + " high watermark " + i64(e.Offset) + " → " + i64(e.Value)
	case "hw-new-leader":
		return p + " high watermark " + i64(e.Offset) + " → " + i64(e.Value) + ": new leader " + strconv.Itoa(e.Broker) +
			" keeps the one it had as a follower"
	case "ack":
		return rec + " acknowledged (acks=" + e.Detail + ")"
	case "reject":
		return rec + " rejected: " + e.Detail + "; retry in " + plural(e.Value, "beat")
	case "fail":
		return rec + " F: delivery.timeout (" + plural(e.Value, "beat") + ") ran out"
	case "unknown":
		return rec + " U: leader changed before the response arrived"
	case "lost":
		return rec + " L: acknowledged, but the new leader's log does not hold it"
	case "lost-on-ack":
		return rec + " acknowledged (acks=" + e.Detail + "), but L: the new leader's log does not hold it"
	case "replicate":
		if e.Value == 1 {
			return b + " fetched " + p + " offset " + i64(e.Offset) + " (record " + e.Detail + ") from leader " + strconv.Itoa(e.Epoch)
		}
		return b + " fetched " + p + " offsets " + i64(e.Offset) + "–" + i64(e.Offset+e.Value-1) +
			" (records " + e.Detail + ") from leader " + strconv.Itoa(e.Epoch)
	case "truncate":
		if e.Epoch < 0 {
			// The leader's epoch cache holds no epoch at or below the
			// follower's last fetched one: nothing the follower has is
			// known to match.
			return b + " truncated " + p + " to offset " + i64(e.Offset) + " (no leader epoch in common with the leader's log)"
		}
		return b + " truncated " + p + " to offset " + i64(e.Offset) + " (diverged at epoch " + strconv.Itoa(e.Epoch) + ")"
	case "isr-shrink":
		return p + " ISR " + e.Detail + ": " + b + " not caught up for " + plural(e.Value, "beat")
	case "isr-expand":
		// isFollowerInSync: the follower's log end offset reached the
		// high watermark, which may lag the leader's log end offset.
		return p + " ISR " + e.Detail + ": " + b + " reached the high watermark (log end offset " + i64(e.Offset) + ", high watermark " + i64(e.Value) + ")"
	case "isr-fence":
		return p + " ISR " + e.Detail + ": " + b + " fenced"
	case "leader":
		return p + " leader " + strconv.Itoa(e.Broker) + ", epoch " + strconv.Itoa(e.Epoch) +
			" (broker " + i64(e.Value) + " " + e.Detail + ")"
	case "offline":
		return p + " offline, epoch " + strconv.Itoa(e.Epoch) + ": no live ISR member (ISR " + e.Detail + ")"
	case "crash":
		return b + " crashed"
	case "restart":
		return b + " restarted"
	case "pause":
		return b + " paused its fetchers"
	case "resume":
		return b + " resumed its fetchers"
	case "add-broker":
		return b + " added"
	case "reassign":
		return p + " reassignment started: " + e.Detail
	case "reassign-done":
		return p + " reassignment done: replicas " + e.Detail
	case "add-partitions":
		return "topic grew by " + plural(e.Value, "partition") + " to " + i64(e.Offset)
	}
	if s, ok := describeConsumer(e); ok {
		return s
	}
	if s, ok := describeShare(e); ok {
		return s
	}
	var s strings.Builder
	s.WriteString(e.Kind)
	if e.Detail != "" {
		s.WriteString(": " + e.Detail)
	}
	return s.String()
}

// plural writes "1 beat" or "n beats".
func plural(n int64, unit string) string {
	s := strconv.FormatInt(n, 10) + " " + unit
	if n != 1 {
		s += "s"
	}
	return s
}
