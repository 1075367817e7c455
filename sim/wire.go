package sim

// This file records the messages on the wire for the trace: every message
// is listed in the beat it is sent (Beat.Messages), and marked Dropped in
// that same list when it reaches an offline broker in the next beat.

// recordSent adds m, just put on the wire, to this beat's message list and
// remembers its place there.
func (e *engine) recordSent(m *message) {
	m.rec = len(e.sent)
	e.sent = append(e.sent, e.wireRecord(m))
}

// recordDropped marks m, sent in the previous beat, as dropped in that
// beat's list. deliver calls it for every message it loses.
func (e *engine) recordDropped(m *message) {
	if m.sentAt != e.now-1 || m.rec >= len(e.lastSent) {
		panic("sim: a message crossed in other than one beat")
	}
	e.lastSent[m.rec].Dropped = true
}

// recordCommit lists an OffsetCommit of member in group for partition p at
// offset: the coordinator applies it in the same beat, so it never waits
// on the wire.
func (e *engine) recordCommit(group, member string, p int, offset int64) {
	e.sent = append(e.sent, Message{Kind: MsgOffsetCommit, Partition: p, Group: group, Member: member, Offset: offset})
}

// wireRecord converts a message on the wire into its recorded form.
func (e *engine) wireRecord(m *message) Message {
	r := Message{Partition: m.part, Broker: m.to, ErrorCode: m.errCode}
	if m.to <= 0 {
		r.Broker = m.from // a response: the broker that answers
	}
	switch m.kind {
	case msgProduce:
		r.Kind, r.Record, r.Attempt = MsgProduce, m.record, m.attempt
	case msgProduceResponse:
		r.Kind, r.Record, r.Attempt, r.Offset = MsgProduceResponse, m.record, m.attempt, m.offset
	case msgFetch:
		r.Kind, r.Follower, r.LeaderEpoch = MsgFetch, m.from, m.epoch
		r.FetchOffset, r.LastFetchedEpoch = m.fetchOffset, m.lastFetchedEpoch
	case msgFetchResponse:
		r.Kind, r.Broker, r.Follower, r.LeaderEpoch = MsgFetchResponse, m.from, m.to, m.epoch
		r.FetchOffset, r.HighWatermark, r.Records = m.fetchOffset, m.hw, recordIDs(m.entries)
		r.Diverging, r.DivergingEpoch, r.DivergingEndOffset = m.diverging, m.divEpoch, m.divEnd
	case msgAlterPartition:
		r.Kind, r.Broker, r.LeaderEpoch, r.PartitionEpoch = MsgAlterPartition, m.from, m.epoch, m.partitionEpoch
		r.ISR = m.alter.isr
		if m.alter.expand {
			r.Adding = m.alter.brokers
		} else {
			r.Removing = m.alter.brokers
		}
	case msgGroup:
		r.Group, r.Member = m.group, m.member
		switch s := m.share; {
		case s == nil && m.to != 0:
			r.Kind, r.FetchOffset = MsgConsumerFetch, m.offset
		case s == nil:
			r.Kind, r.FetchOffset, r.Records, r.HighWatermark = MsgConsumerFetchResponse, m.offset, recordIDs(m.entries), m.hw
			r.LogEndOffset = m.leo
		case s.response:
			r.Kind, r.ErrorCode = MsgShareFetchResponse, s.errCode
			for _, h := range s.records {
				r.Acquired = append(r.Acquired, AcquiredRecord{Offset: h.offset, Record: h.record, DeliveryCount: h.count})
			}
		default:
			r.Kind = MsgShareAcknowledge
			if s.fetch {
				r.Kind = MsgShareFetch
			}
			for _, a := range s.acks {
				r.Acknowledgements = append(r.Acknowledgements, Acknowledgement{Offset: a.offset, Type: a.typ.String()})
			}
		}
	}
	return r
}
