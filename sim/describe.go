package sim

import (
	"strconv"
	"strings"
)

// This file holds every wording of the engine's events: the one place a
// sentence of the trace's `events`, of a figure caption or of a golden file
// is written. Sentences are short and use Kafka's terms; partitions are
// written p0, p1, …. The words are built from the event's fields only.

// Shown names settings that a reader already sees beside an event's
// sentence, so that the sentence need not say them again: a side-by-side
// figure names each run by the setting it changes, and under "acks=1",
// "record 3 acknowledged (acks=1)" says it twice. The zero value shows
// nothing: every sentence is whole.
type Shown struct {
	// Acks is the producer's acks as the run's name gives it ("0", "1",
	// "all"), or "" when the name does not give it.
	Acks string
}

// Describe returns the event's canonical text, less what shown says the
// reader already sees. Describe(Shown{}) is String.
func (e Event) Describe(shown Shown) string {
	if shown == (Shown{}) {
		return e.String()
	}
	return describeShown(e, shown)
}

// describe is the canonical wording of an event.
func describe(e Event) string { return describeShown(e, Shown{}) }

// describeShown is describe less what shown names.
func describeShown(e Event, shown Shown) string {
	acks := " (acks=" + e.Acks + ")"
	if shown.Acks != "" && shown.Acks == e.Acks {
		acks = ""
	}
	p := "p" + strconv.Itoa(e.Partition)
	b := "broker " + strconv.Itoa(e.Broker)
	rec := "record " + strconv.Itoa(e.Record)
	i64 := func(v int64) string { return strconv.FormatInt(v, 10) }
	itoa := strconv.Itoa
	offNum := i64(e.Offset)
	at := p + " offset " + offNum // share records
	rec1 := ""                    // a share record, when known
	if e.Record > 0 {
		rec1 = " (record " + itoa(e.Record) + ")"
	}
	groupEpoch := " (group epoch " + itoa(e.GroupEpoch) + ")"
	count := "delivery count " + itoa(e.DeliveryCount)
	switch e.Kind {
	// The cluster.
	case KindCrash:
		return b + " crashed"
	case KindRestart:
		return b + " restarted"
	case KindPause:
		return b + " paused its fetchers"
	case KindResume:
		return b + " resumed its fetchers"
	case KindAddBroker:
		return b + " added"
	case KindAddPartitions:
		return "topic grew by " + plural(int64(e.Added), "partition") + " to " + itoa(e.Partitions)
	case KindLeader:
		return p + " leader " + itoa(e.Broker) + ", epoch " + itoa(e.LeaderEpoch) +
			" (broker " + itoa(e.Cause) + " " + e.Reason + ")"
	case KindOffline:
		return p + " offline, epoch " + itoa(e.LeaderEpoch) + ": no live ISR member (ISR " + listString(e.ISR) + ")"
	case KindIsolate:
		return b + " cut off from the controller and the other brokers; clients still reach it"
	case KindHeal:
		return b + " reaches the controller and the other brokers again"
	case KindBrokerFence:
		return "controller fenced " + b + ": no heartbeat for broker.session.timeout (" + plural(int64(e.SessionTimeout), "beat") + ")"
	case KindStepDown:
		s := b + " learns that it no longer leads " + p + " (it believed epoch " + itoa(e.FromEpoch) + "; epoch " + itoa(e.LeaderEpoch)
		if e.Leader == 0 {
			return s + " has no leader)"
		}
		return s + "'s leader is broker " + itoa(e.Leader) + ") and follows"
	case KindMetadata:
		who := "producer"
		if e.Group != "" {
			who = "group " + e.Group
		}
		s := who + " refreshed its metadata: " + p + "'s leader is "
		if e.Leader == 0 {
			s += "none"
		} else {
			s += "broker " + itoa(e.Leader)
		}
		return s + ", not " + b
	case KindISRFence:
		return p + " ISR " + isrChange(e.From, e.To) + ": " + b + " fenced"
	case KindReassign:
		return p + " reassignment started: " + listString(e.From) + " → " + listString(e.To) +
			" (adding " + listString(e.Adding) + ", removing " + listString(e.Removing) + ")"
	case KindReassignDone:
		return p + " reassignment done: replicas " + listString(e.To) + " (removed " + listString(e.Removing) + ")"

	// Leaders and followers.
	case KindAppend:
		return b + " appended " + rec + " to " + p + " at offset " + i64(e.Offset) + " (epoch " + itoa(e.LeaderEpoch) + ")"
	case KindRefuse:
		return b + " refused " + rec + " for " + p + ": " + e.ErrorCode + " (ISR " + listString(e.ISR) +
			" below min.insync.replicas " + itoa(e.MinInsyncReplicas) + ")"
	case KindHW:
		s := p + " high watermark " + i64(e.FromOffset) + " → " + i64(e.ToOffset)
		if why := hwReason(e); why != "" {
			s += ": " + why
		}
		return s
	case KindHWNewLeader:
		return p + " high watermark " + i64(e.FromOffset) + " → " + i64(e.ToOffset) + ": new leader " + itoa(e.Broker) +
			" keeps the one it had as a follower"
	case KindISRShrinkPropose:
		why := "not caught up for " + plural(int64(e.LagTime), "beat")
		if e.LagTime == LagNever {
			why = "never caught up since the leader began tracking it"
		}
		return p + " leader asks the controller to drop " + b + " from the ISR (AlterPartition): " + why
	case KindISRShrink:
		return p + " ISR " + isrChange(e.From, e.To) + ": the controller dropped " + brokerList(e.Removing)
	case KindISRExpandPropose:
		// isFollowerInSync names both conditions: the high watermark, which
		// may lag the leader's log end offset, and the start offset of the
		// leader's epoch.
		return p + " leader asks the controller to add " + b + " to the ISR (AlterPartition): its log end offset " +
			i64(e.LogEndOffset) + " reached the high watermark " + i64(e.HighWatermark) + " and epoch " +
			itoa(e.LeaderEpoch) + "'s start offset " + i64(e.EpochStartOffset)
	case KindISRExpand:
		return p + " ISR " + isrChange(e.From, e.To) + ": the controller added " + b
	case KindISRHeldBack:
		return p + " keeps " + b + " out of the ISR: its log end offset " + i64(e.LogEndOffset) +
			" reached the high watermark " + i64(e.HighWatermark) + " but not epoch " + itoa(e.LeaderEpoch) +
			"'s start offset " + i64(e.EpochStartOffset)
	case KindISRRefused:
		return p + " controller refused to add " + b + " to the ISR: " + e.ErrorCode + " (" + b + " is fenced)"
	case KindReplicate:
		ids := listString(e.Records)
		ids = ids[1 : len(ids)-1]
		if len(e.Records) == 1 {
			return b + " fetched " + p + " offset " + i64(e.Offset) + " (record " + ids + ") from leader " + itoa(e.Leader)
		}
		return b + " fetched " + p + " offsets " + i64(e.Offset) + "–" + i64(e.Offset+int64(len(e.Records))-1) +
			" (records " + ids + ") from leader " + itoa(e.Leader)
	case KindTruncate:
		s := b + " truncated " + p + " from offset " + i64(e.FromOffset) + " to " + i64(e.ToOffset)
		if e.Reason == ReasonEpochUnknown {
			return s + ", the end of its last epoch before the leader's epoch " + itoa(e.DivergingEpoch) +
				", which it lacks; it fetches again to find where the logs diverge"
		}
		return s + ": its log and the leader's diverge there (the leader's epoch " + itoa(e.DivergingEpoch) +
			" ends at offset " + i64(e.EpochEndOffset) + ")"

	// The producer.
	case KindCreate:
		return "producer created " + rec + " (key " + e.Key + " → " + p + ")"
	case KindSend:
		s := "producer sent " + rec + " to " + b + ", leader of " + p
		if e.Attempt > 1 {
			s += " (attempt " + itoa(e.Attempt) + ")"
		}
		return s
	case KindAck:
		return rec + " acknowledged" + acks
	case KindReject:
		return rec + " rejected: " + e.ErrorCode + "; retry in " + plural(int64(e.RetryBackoff), "beat")
	case KindFail:
		return rec + " F: delivery.timeout (" + plural(int64(e.DeliveryTimeout), "beat") + ") ran out"
	case KindRetry:
		return rec + "'s outcome is unknown: the leader changed before the answer came; resent in " +
			plural(int64(e.RetryBackoff), "beat") + " (retry " + itoa(e.Retry) + " of " + itoa(e.Retries) + ")"
	case KindDuplicate:
		return b + " recognised " + rec + " at offset " + i64(e.Offset) + " of " + p +
			" by its producer id and sequence number: a duplicate, not appended again"
	case KindUnknown:
		if e.Reason == ReasonDeliveryTimeout {
			return rec + " U: delivery.timeout (" + plural(int64(e.DeliveryTimeout), "beat") +
				") ran out, and an earlier attempt may have landed"
		}
		return rec + " U: leader changed before the response arrived"
	case KindLost:
		return rec + " L: acknowledged, but the new leader's log does not hold it"
	case KindLostOnAck:
		return rec + " acknowledged" + acks + ", but L: the new leader's log does not hold it"

	// Consumer groups.
	case KindConsumerJoin:
		return e.Member + " joined group " + e.Group + groupEpoch
	case KindConsumerLeaving:
		return e.Member + " is leaving group " + e.Group + " once it has processed record " + itoa(e.Record)
	case KindConsumerLeave:
		return e.Member + " left group " + e.Group + groupEpoch
	case KindConsumerStop:
		return e.Member + " stopped without leaving: no more heartbeats, fetches or commits"
	case KindConsumerFence:
		return "group " + e.Group + " fenced " + e.Member + ": no heartbeat for " + plural(int64(e.SessionTimeout), "beat") +
			" (session.timeout)" + groupEpoch
	case KindConsumerPartitions:
		return "group " + e.Group + " sees " + itoa(e.Partitions) + " partitions instead of " + itoa(e.PreviousPartitions) +
			groupEpoch
	case KindConsumerTarget:
		words := make([]string, len(e.Assignment))
		for i, a := range e.Assignment {
			words[i] = a.Member + " " + partList(a.Partitions)
		}
		detail := "no members"
		if len(words) > 0 {
			detail = strings.Join(words, ", ")
		}
		return "group " + e.Group + " target assignment for epoch " + itoa(e.GroupEpoch) + ": " + detail
	case KindConsumerRelease:
		return e.Member + " released " + p
	case KindConsumerAssign:
		if e.Offset < 0 {
			return e.Member + " owns " + p + " and asks its leader for the " + e.AutoOffsetReset + " offset (auto.offset.reset=" +
				e.AutoOffsetReset + ")"
		}
		return e.Member + " owns " + p + ", starting at offset " + offNum + " (" + answerWords(e) + ")"
	case KindConsumerStart:
		return e.Member + " starts " + p + " at offset " + offNum + " (" + answerWords(e) + ")"
	case KindConsumerOffsetUnavailable:
		return e.Member + ": " + unavailableWords(e, "the "+e.AutoOffsetReset+" offset of "+p) + "; it asks again every beat"
	case KindConsumerPollTimeout:
		s := e.Member + " left group " + e.Group + ": no poll for " + plural(int64(e.MaxPollInterval), "beat") +
			" (max.poll.interval)" + groupEpoch
		if e.Record > 0 {
			s += "; it is still processing " + rec
		}
		return s
	case KindConsumerCommitFailed:
		return e.Member + "'s commit of " + p + " offset " + offNum + " fails: " + e.ErrorCode +
			", it is no longer a member (CommitFailedException)"
	case KindConsumerRejoin:
		return e.Member + " polls again and rejoins group " + e.Group + groupEpoch
	case KindConsumerCommit:
		why := map[string]string{ReasonAuto: "auto-commit", ReasonRevoke: "before releasing it", ReasonLeave: "before leaving"}[e.Reason]
		return e.Member + " committed " + p + " offset " + offNum + " (" + why + ")"
	case KindConsumerFetch:
		what := "offset " + offNum
		if n := len(e.Records); n > 1 {
			what = "offsets " + offNum + "–" + strconv.FormatInt(e.Offset+int64(n)-1, 10)
		}
		return e.Member + " fetched " + p + " " + what + " from broker " + itoa(e.Broker) +
			" (high watermark " + strconv.FormatInt(e.HighWatermark, 10) + ")"
	case KindConsumerProcess:
		s := e.Member + " processes " + p + " offset " + offNum + " (record " + itoa(e.Record) + ")"
		if e.Reprocessed {
			s += " again: the group processed it before"
		}
		return s
	case KindConsumerReset:
		if e.ToOffset < 0 {
			return e.Member + ": " + p + " offset " + strconv.FormatInt(e.FromOffset, 10) + " is past broker " + itoa(e.Broker) +
				"'s log end offset " + strconv.FormatInt(e.LogEndOffset, 10) + " (" + e.ErrorCode + "); it resets by " +
				startWords(e.AutoOffsetReset)
		}
		return e.Member + ": " + p + " offset " + strconv.FormatInt(e.FromOffset, 10) + " is past broker " + itoa(e.Broker) +
			"'s log end offset " + strconv.FormatInt(e.LogEndOffset, 10) + " (" + e.ErrorCode + "); reset to " +
			strconv.FormatInt(e.ToOffset, 10) + " (" + startWords(e.AutoOffsetReset) + ")"

	// Share groups.
	case KindShareJoin:
		return e.Member + " joined share group " + e.Group
	case KindShareLeave:
		return e.Member + " left share group " + e.Group
	case KindShareStop:
		return e.Member + " stopped (no more fetches, acknowledgements or heartbeats)"
	case KindShareFence:
		return e.Member + " fenced by the coordinator: no heartbeat for " + plural(int64(e.SessionTimeout), "beat")
	case KindShareAssign:
		words := make([]string, len(e.Assignment))
		for i, a := range e.Assignment {
			words[i] = a.Member + " " + listString(a.Partitions)
		}
		detail := strings.Join(words, ", ")
		if detail == "" {
			detail = "no members"
		}
		return e.Group + " group epoch " + strconv.Itoa(e.GroupEpoch) + ", " + plural(int64(e.MembersPerPartition), "member") +
			" per partition: " + detail
	case KindShareStart:
		return e.Group + " " + p + " share-partition start offset " + strconv.FormatInt(e.Offset, 10) +
			" (share.auto.offset.reset=" + e.AutoOffsetReset + ")"
	case KindShareOffsetUnavailable:
		return e.Group + " " + p + ": " + unavailableWords(e, "its share-partition start offset") +
			"; the group's members ask again every beat"
	case KindShareAcquire:
		return e.Member + " acquired " + at + rec1 + ", " + count + ", locked until beat " + strconv.Itoa(e.LockedUntil)
	case KindShareProcessed:
		if e.AcknowledgeType == ackRelease.String() {
			return e.Member + " failed on " + at + rec1 + " and hands it back: RELEASE"
		}
		return e.Member + " finished " + at + rec1 + ": " + e.AcknowledgeType
	case KindShareAccept:
		return e.Group + " " + at + rec1 + " acknowledged by " + e.Member + " (" + count + ")"
	case KindShareAvailable:
		return e.Group + " " + at + rec1 + " available again, " + shareReleaseWords(e) + " (" + count + ")"
	case KindShareArchive:
		if e.Reason == ReasonRejected {
			return e.Group + " " + at + rec1 + " archived: " + shareReleaseWords(e)
		}
		return e.Group + " " + at + rec1 + " archived: " + shareReleaseWords(e) + " at " + count +
			", the delivery count limit"
	case KindShareRefused:
		return e.Member + "'s " + e.AcknowledgeType + " of " + at + rec1 + " refused: " + e.ErrorCode + " (not acquired by it)"
	case KindShareSPSO:
		return e.Group + " " + p + " share-partition start offset " + strconv.FormatInt(e.FromOffset, 10) + " → " +
			strconv.FormatInt(e.ToOffset, 10)
	case KindShareNotLeader:
		s := e.Member + "'s request for " + p + " refused by broker " + strconv.Itoa(e.Broker) + ": " + e.ErrorCode
		if e.LostAcknowledgements > 0 {
			s += "; " + plural(int64(e.LostAcknowledgements), "acknowledgement") + " lost"
		}
		return s
	case KindShareLost:
		return e.Member + "'s request for " + p + " to broker " + strconv.Itoa(e.Broker) + " was lost"
	}
	return string(e.Kind)
}

// hwReason words why a high watermark moved, or "".
func hwReason(e Event) string {
	switch e.Reason {
	case ReasonLeaderAlone:
		return "the ISR is the leader alone"
	case ReasonNewLeaderAlone:
		return "the new leader's ISR is itself alone"
	case ReasonFollowerFetch:
		return "broker " + strconv.Itoa(e.Broker) + " fetched from offset " + strconv.FormatInt(e.FetchOffset, 10)
	case ReasonISRShrink:
		return "the ISR no longer waits for the replica it dropped"
	case ReasonISRFence:
		return "the ISR no longer waits for the broker the controller fenced"
	case ReasonISRExpand:
		return "the ISR is back at min.insync.replicas"
	case ReasonReassignmentDone:
		return "the reassignment dropped the replicas it removed"
	}
	return ""
}

// unavailableWords says why a start-offset lookup for what failed (the
// ErrorCode of consumer-offset-unavailable and share-offset-unavailable).
func unavailableWords(e Event, what string) string {
	if e.ErrorCode != errOffsetNotAvailable {
		return "no leader to ask for " + what + " (" + e.ErrorCode + ")"
	}
	return "broker " + strconv.Itoa(e.Broker) + " answers " + e.ErrorCode + " for " + what + ": its high watermark " +
		strconv.FormatInt(e.HighWatermark, 10) + " is below epoch " + strconv.Itoa(e.LeaderEpoch) + "'s start offset " +
		strconv.FormatInt(e.EpochStartOffset, 10)
}

// answerWords says where a start offset came from (startWords), and, when a
// leader cut off by isolate answered the lookup, which one.
func answerWords(e Event) string {
	s := startWords(e.AutoOffsetReset)
	if e.Broker != 0 {
		s += ", of broker " + strconv.Itoa(e.Broker) + ", which the group's metadata still names; cut off, it believes it still leads epoch " +
			strconv.Itoa(e.FromEpoch)
	}
	return s
}

// startWords says where a consumer's start offset came from: the
// committed offset, or auto.offset.reset.
func startWords(reset string) string {
	switch reset {
	case "":
		return "committed offset"
	case "latest":
		return "auto.offset.reset=latest, the high watermark"
	}
	return "auto.offset.reset=" + reset
}

// shareReleaseWords says how a share record left its member (Reason and
// Member of share-available and share-archive).
func shareReleaseWords(e Event) string {
	switch e.Reason {
	case ReasonLockExpired:
		return "lock of " + e.Member + " expired"
	case ReasonReleased:
		return "released by " + e.Member
	case ReasonRejected:
		return "rejected by " + e.Member
	case ReasonLeft:
		return "released: " + e.Member + " left the group and its share session closed, giving the delivery count back"
	case ReasonFenced:
		return "released: " + e.Member + " was fenced"
	case ReasonLeaderChange:
		return "acquired by " + e.Member + " at the old leader: the new leader loads the share coordinator's state, which never records an acquisition"
	}
	return e.Reason
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

// isrChange writes "OLD → NEW" for a replica list that changed.
func isrChange(old, cur []int) string {
	return listString(old) + " → " + listString(cur)
}

// brokerList writes "broker 2" or "brokers 2 and 3" (or "brokers 2, 3 and
// 4").
func brokerList(bs []int) string {
	if len(bs) == 1 {
		return "broker " + strconv.Itoa(bs[0])
	}
	out := "brokers "
	for i, b := range bs {
		switch {
		case i == 0:
		case i == len(bs)-1:
			out += " and "
		default:
			out += ", "
		}
		out += strconv.Itoa(b)
	}
	return out
}

// DescribeBrokers is the wording of several events of kind k at one beat,
// one for each broker of brokers (at least two, in the order they
// happened), as one sentence: "brokers 2 and 3 crashed", "brokers 1, 2
// and 3 restarted". ok is false for a kind without such a sentence (only
// crash, restart and add.broker have one: the others' sentences say more
// than the broker, or their verb would not agree).
func DescribeBrokers(k Kind, brokers []int) (s string, ok bool) {
	switch k {
	case KindCrash, KindRestart, KindAddBroker:
	default:
		return "", false
	}
	if len(brokers) < 2 {
		return "", false
	}
	ids := make([]string, len(brokers))
	for i, b := range brokers {
		ids[i] = strconv.Itoa(b)
	}
	one := describe(Event{Kind: k, Broker: brokers[0], Partition: -1})
	verb := strings.TrimPrefix(one, "broker "+ids[0])
	return "brokers " + strings.Join(ids[:len(ids)-1], ", ") + " and " + ids[len(ids)-1] + verb, true
}
