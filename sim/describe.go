package sim

import (
	"fmt"
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

// partList writes partitions as "[p0 p2]".
func partList(ps []int) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = "p" + strconv.Itoa(p)
	}
	return "[" + strings.Join(s, " ") + "]"
}

// describeConsumer words the consumer-group events; ok is false for
// other kinds.
func describeConsumer(e Event) (s string, ok bool) {
	p := "p" + strconv.Itoa(e.Partition)
	off := strconv.FormatInt(e.Offset, 10)
	switch e.Kind {
	case "consumer-join":
		return fmt.Sprintf("%s joined group %s (group epoch %d)", e.Member, e.Group, e.Epoch), true
	case "consumer-leaving":
		return e.Member + " is leaving group " + e.Group + " once it has processed record " + strconv.Itoa(e.Record), true
	case "consumer-leave":
		return fmt.Sprintf("%s left group %s (group epoch %d)", e.Member, e.Group, e.Epoch), true
	case "consumer-stop":
		return e.Member + " stopped without leaving: no more heartbeats, fetches or commits", true
	case "consumer-fence":
		return fmt.Sprintf("group %s fenced %s: no heartbeat for %s (session.timeout) (group epoch %d)",
			e.Group, e.Member, plural(e.Value, "beat"), e.Epoch), true
	case "consumer-partitions":
		return fmt.Sprintf("group %s sees %d partitions instead of %d (group epoch %d)", e.Group, e.Value, e.Offset, e.Epoch), true
	case "consumer-target":
		return fmt.Sprintf("group %s target assignment for epoch %d: %s", e.Group, e.Epoch, e.Detail), true
	case "consumer-release":
		return e.Member + " released " + p, true
	case "consumer-assign":
		return e.Member + " owns " + p + ", starting at offset " + off + " (" + e.Detail + ")", true
	case "consumer-commit":
		why := map[string]string{"auto": "auto-commit", "revoke": "before releasing it", "leave": "before leaving"}[e.Detail]
		return e.Member + " committed " + p + " offset " + off + " (" + why + ")", true
	case "consumer-fetch":
		what := "offset " + off
		if e.Value > 1 {
			what = "offsets " + off + "–" + strconv.FormatInt(e.Offset+e.Value-1, 10)
		}
		return fmt.Sprintf("%s fetched %s %s from broker %d (high watermark %d)", e.Member, p, what, e.Broker, e.Epoch), true
	case "consumer-process":
		s := e.Member + " processes " + p + " offset " + off + " (record " + strconv.Itoa(e.Record) + ")"
		if e.Detail == "again" {
			s += " again: the group processed it before"
		}
		return s, true
	case "consumer-reset":
		return fmt.Sprintf("%s: %s offset %s is past broker %d's log end offset %d (OFFSET_OUT_OF_RANGE); reset to %d (%s)",
			e.Member, p, off, e.Broker, e.Epoch, e.Value, e.Detail), true
	}
	return "", false
}

// describeShare words a share-group event; ok is false when e is not one.
func describeShare(e Event) (string, bool) {
	s := describeShareText(e)
	return s, s != ""
}

// describeShareText words a share-group event, or returns "".
func describeShareText(e Event) string {
	p := "p" + strconv.Itoa(e.Partition)
	off := p + " offset " + strconv.FormatInt(e.Offset, 10)
	rec := ""
	if e.Record > 0 {
		rec = " (record " + strconv.Itoa(e.Record) + ")"
	}
	count := "delivery count " + strconv.FormatInt(e.Value, 10)
	switch e.Kind {
	case "share-join":
		return e.Member + " joined share group " + e.Group
	case "share-leave":
		return e.Member + " left share group " + e.Group
	case "share-stop":
		return e.Member + " stopped (no more fetches, acknowledgements or heartbeats)"
	case "share-fence":
		return e.Member + " fenced by the coordinator: no heartbeat for " + plural(e.Value, "beat")
	case "share-assign":
		return e.Group + " group epoch " + strconv.Itoa(e.Epoch) + ", " + strconv.FormatInt(e.Value, 10) +
			" member(s) per partition: " + e.Detail
	case "share-start":
		return e.Group + " " + p + " share-partition start offset " + strconv.FormatInt(e.Offset, 10) +
			" (share.auto.offset.reset=" + e.Detail + ")"
	case "share-acquire":
		return e.Member + " acquired " + off + rec + ", " + count + ", locked until beat " + strconv.Itoa(e.Epoch)
	case "share-processed":
		if e.Detail == ackRelease.String() {
			return e.Member + " failed on " + off + rec + " and hands it back: RELEASE"
		}
		return e.Member + " finished " + off + rec + ": " + e.Detail
	case "share-accept":
		return e.Group + " " + off + rec + " acknowledged by " + e.Member + " (" + count + ")"
	case "share-available":
		return e.Group + " " + off + rec + " available again, " + e.Detail + " (" + count + ")"
	case "share-archive":
		if strings.HasPrefix(e.Detail, "rejected") {
			return e.Group + " " + off + rec + " archived: " + e.Detail
		}
		return e.Group + " " + off + rec + " archived: " + e.Detail + " at " + count +
			", the delivery count limit"
	case "share-refused":
		return e.Member + "'s " + e.Detail + " of " + off + rec + " refused: INVALID_RECORD_STATE (not acquired by it)"
	case "share-spso":
		return e.Group + " " + p + " share-partition start offset " + strconv.FormatInt(e.Offset, 10) + " → " +
			strconv.FormatInt(e.Value, 10)
	case "share-not-leader":
		s := e.Member + "'s request for " + p + " refused by broker " + strconv.Itoa(e.Broker) + ": NOT_LEADER_OR_FOLLOWER"
		if e.Value > 0 {
			s += "; " + plural(e.Value, "acknowledgement") + " lost"
		}
		return s
	case "share-lost":
		return e.Member + "'s request for " + p + " to broker " + strconv.Itoa(e.Broker) + " was lost"
	}
	return ""
}
