package sim

// Card stages on the producer rail (Card.Stage).
const (
	stageQueued    = "queued"    // created, waiting for an in-flight slot
	stageSending   = "sending"   // produce request on the wire to the leader
	stageWaiting   = "waiting"   // appended, parked until the high watermark passes it
	stageAnswering = "answering" // response on the wire to the producer
	stageBackoff   = "backoff"   // waiting to retry, or for the partition to have a leader
	stageSettled   = "settled"   // outcome final this beat
)

// producer is the one producer (KafkaProducer with its Sender and
// RecordAccumulator), sending one record per produce request under ONE
// shared max.in.flight.requests.per.connection budget.
type producer struct {
	// open holds the records created and not yet settled, in id order;
	// records settled this beat stay until the beat is recorded.
	open []*record
	// lost holds acknowledged records that settled L this beat.
	lost []*record
	// inFlight counts the slots held. A record holds its slot from its
	// first send until it settles, through backoffs, so records leave in
	// order.
	inFlight int
	// next is the number of the next record to create.
	next int
	// meta is the leader the producer believes each partition has (0 for
	// none), refreshed at beat metaAt; see leaderFor.
	meta   []int
	metaAt int
}

// record is one record's life on the producer.
type record struct {
	id        int
	key       string
	part      int
	createdAt int
	stage     string
	attempt   int
	hasSlot   bool
	// outstanding is true from a send until its answer arrives;
	// positive is true when that answer is NONE and on the wire.
	outstanding, positive bool
	// lost is true when an election dropped the record while its positive
	// answer was still on the wire: it settles L when the answer arrives.
	lost bool
	// resends counts the resends after an unknown outcome (retries);
	// unknown is true once the record may be in the log, so it can no
	// longer end F: an attempt's outcome was unknown (the leader changed
	// before the answer), or a leader appended an attempt — whatever that
	// attempt's answer (REQUEST_TIMED_OUT, NOT_ENOUGH_REPLICAS_AFTER_APPEND,
	// or NOT_LEADER_OR_FOLLOWER from a purgatory), the copy is in a log and
	// may be replicated, committed and read (onAppended).
	resends int
	unknown bool
	// sentTo is the broker the latest attempt went to.
	sentTo    int
	retryAt   int
	offset    int64
	outcome   string
	settledAt int
	ackedAt   int
	// appends lists every leader append of the record, in order.
	appends []Append
}

// stepProducer is the producer half of step 5. It creates the record due
// this beat (record i at Start + (i−1)·Interval, key Keys[(i−1) mod
// len(Keys)], partition by the default partitioner over the current
// partition count); fails every record not in flight whose
// delivery.timeout has run out since its creation (F); resends records
// whose retry.backoff is over; then sends queued records in id order while
// the shared in-flight budget has room. Metadata is instant: a record goes
// to its partition's current leader, and waits while there is none.
func (e *engine) stepProducer() {
	pc := &e.sc.Producer
	pr := &e.prod
	if e.now-pr.metaAt >= pc.MetadataMaxAge {
		e.refreshMetadata()
	}
	for pr.next < pc.Records && pc.Start+pr.next*pc.Interval <= e.now {
		pr.next++
		key := pc.Keys[(pr.next-1)%len(pc.Keys)]
		r := &record{id: pr.next, key: key, part: PartitionFor(key, len(e.parts)), createdAt: e.now,
			stage: stageQueued, offset: -1, settledAt: -1, ackedAt: -1}
		e.records = append(e.records, r)
		pr.open = append(pr.open, r)
		e.emit(Event{Kind: KindCreate, Record: r.id, Partition: r.part, Key: key})
	}
	for _, r := range pr.open {
		if r.outcome == "" && !r.outstanding && e.now-r.createdAt >= pc.DeliveryTimeout {
			if r.unknown {
				// The producer gives up (TimeoutException), but an earlier
				// attempt may have landed: not a clean failure.
				e.settle(r, OutcomeU)
				e.emit(Event{Kind: KindUnknown, Record: r.id, Partition: r.part, Reason: ReasonDeliveryTimeout,
					DeliveryTimeout: pc.DeliveryTimeout})
				continue
			}
			e.settle(r, OutcomeF)
			e.emit(Event{Kind: KindFail, Record: r.id, Partition: r.part, DeliveryTimeout: pc.DeliveryTimeout})
		}
	}
	for _, r := range pr.open {
		if r.outcome == "" && r.hasSlot && !r.outstanding && e.now >= r.retryAt {
			e.maybeSendRecord(r)
		}
	}
	for _, r := range pr.open {
		if r.outcome != "" || r.hasSlot {
			continue
		}
		if pr.inFlight >= pc.MaxInFlight {
			break
		}
		e.maybeSendRecord(r)
	}
}

// maybeSendRecord sends r to its partition's leader, taking an in-flight
// slot if it has none. With no leader the record waits in backoff. With
// acks=0 it settles "sent" at once and frees its slot. It reports whether
// it sent.
func (e *engine) maybeSendRecord(r *record) bool {
	p := e.parts[r.part]
	to := e.leaderFor(p)
	if to == 0 {
		r.stage = stageBackoff
		return false
	}
	if !r.hasSlot {
		r.hasSlot = true
		e.prod.inFlight++
	}
	r.attempt++
	r.outstanding, r.positive = true, false
	r.stage = stageSending
	r.sentTo = to
	e.send(message{kind: msgProduce, from: 0, to: to, part: p.id, record: r.id, attempt: r.attempt})
	e.emit(Event{Kind: KindSend, Record: r.id, Partition: p.id, Broker: to, Attempt: r.attempt})
	if e.sc.Producer.Acks == AcksNone {
		r.outstanding = false
		e.settle(r, OutcomeSent)
	}
	return true
}

// settle makes outcome r's final outcome at this beat and frees its slot.
func (e *engine) settle(r *record, outcome string) {
	r.outcome = outcome
	r.settledAt = e.now
	r.stage = stageSettled
	if r.hasSlot {
		r.hasSlot = false
		e.prod.inFlight--
	}
}

// current returns record id if attempt is its latest and it is unsettled.
func (pr *producer) current(e *engine, id, attempt int) *record {
	r := e.records[id-1]
	if r.outcome != "" || r.attempt != attempt {
		return nil
	}
	return r
}

// onAppended notes that a leader appended record id at offset off. From
// then on the record cannot settle F, whatever its answer says: Kafka's
// leader appends first (Partition.appendRecordsToLeader) and only then
// parks an acks=all request (DelayedProduce), so REQUEST_TIMED_OUT
// (DelayedProduce.onExpiration), NOT_ENOUGH_REPLICAS_AFTER_APPEND
// (Partition.checkEnoughReplicasReachOffset, the high watermark already
// past it) and the NOT_LEADER_OR_FOLLOWER of a leader that stepped down
// with it parked all answer a record that is in the log, where followers
// may copy it and the high watermark pass it. A producer that gives up
// on it then (delivery.timeout) settles it U. Only a record no leader
// ever appended — every attempt refused before the append
// (NOT_ENOUGH_REPLICAS, NOT_LEADER_OR_FOLLOWER from a non-leader) or
// never sent — is a clean failure.
func (pr *producer) onAppended(e *engine, id int, off int64, epoch int) {
	r := e.records[id-1]
	r.unknown = true
	r.offset = off
	r.appends = append(r.appends, Append{Offset: off, LeaderEpoch: epoch, Beat: e.now})
}

// onParked notes that the leader parked the record's acks=all request.
func (pr *producer) onParked(e *engine, id, attempt int) {
	if r := pr.current(e, id, attempt); r != nil {
		r.stage = stageWaiting
	}
}

// onAnswering notes that a response to the record's request is on the
// wire; positive when its error code is NONE.
func (pr *producer) onAnswering(e *engine, id, attempt int, positive bool) {
	if r := pr.current(e, id, attempt); r != nil {
		r.stage = stageAnswering
		r.positive = positive
	}
}

// handleProduceResponse is the producer receiving an answer
// (Sender.handleProduceResponse): NONE acknowledges the record (or settles
// it L if an election already dropped it); an error is retriable, so the
// record backs off retry.backoff beats and keeps its in-flight slot.
func (e *engine) handleProduceResponse(m *message) {
	r := e.prod.current(e, m.record, m.attempt)
	if r == nil || !r.outstanding {
		return
	}
	r.outstanding = false
	if m.errCode == errNone {
		r.ackedAt = e.now
		// The offset the producer learns (RecordMetadata.offset) is the
		// one the answer names: for a duplicate, where its first copy is
		// (UnifiedLog.append returns the duplicate batch's offsets), which
		// is not always where it was last appended — a deposed leader may
		// hold a copy of its own that its truncation will remove.
		r.offset = m.offset
		if r.lost {
			e.settle(r, OutcomeL)
			e.emit(Event{Kind: KindLostOnAck, Record: r.id, Partition: r.part, Acks: e.sc.Producer.Acks.String()})
			return
		}
		e.settle(r, OutcomeAcked)
		e.emit(Event{Kind: KindAck, Record: r.id, Partition: r.part, Acks: e.sc.Producer.Acks.String()})
		return
	}
	r.stage = stageBackoff
	r.retryAt = e.now + e.sc.Producer.RetryBackoff
	if m.errCode == errNotLeaderOrFollower {
		// An InvalidMetadataException: Sender asks for a metadata update.
		defer e.refreshMetadata()
	}
	e.emit(Event{Kind: KindReject, Record: r.id, Partition: r.part, ErrorCode: m.errCode, RetryBackoff: e.sc.Producer.RetryBackoff})
}

// onLeaderChange handles every record of p whose request is outstanding
// and not answered positively (on the wire, parked, or an error on its way
// back): the producer cannot know whether it landed. While the record has
// resends left (retries; Sender.canRetry: attempts < retries) the producer
// sends it again, after retry.backoff, to the new leader — which, if the
// record had landed and been copied, stores it a second time unless the
// producer is idempotent (handleProduce). Otherwise it settles U.
func (pr *producer) onLeaderChange(e *engine, p *partition) {
	// A request sent to a leader that is cut off and does not know it was
	// replaced is still answered by it (isolate.go): not unknown yet.
	pr.onUnknown(e, p, func(r *record) bool { return p.deposedBy(r.sentTo) == nil })
}

// onUnknown resends or settles U (see onLeaderChange) every record of p
// with an unanswered request for which unknown holds.
func (pr *producer) onUnknown(e *engine, p *partition, unknown func(r *record) bool) {
	pc := &e.sc.Producer
	for _, r := range pr.open {
		if r.part != p.id || r.outcome != "" || !r.outstanding || r.positive || !unknown(r) {
			continue
		}
		r.outstanding = false
		r.unknown = true
		if r.resends < pc.Retries {
			r.resends++
			r.stage = stageBackoff
			r.retryAt = e.now + pc.RetryBackoff
			e.emit(Event{Kind: KindRetry, Record: r.id, Partition: p.id, Attempt: r.attempt, Retry: r.resends,
				Retries: pc.Retries, RetryBackoff: pc.RetryBackoff})
			continue
		}
		e.settle(r, OutcomeU)
		e.emit(Event{Kind: KindUnknown, Record: r.id, Partition: p.id, Reason: ReasonLeaderChange})
	}
}

// onNewLeaderLog settles L every acknowledged record of p that the new
// leader's log does not hold: the partition continues without it. A record
// whose positive answer is still on the wire is marked, and settles L when
// the answer arrives.
func (pr *producer) onNewLeaderLog(e *engine, p *partition) {
	log := p.reps[p.leader].log
	for _, r := range e.records {
		if r.part != p.id || r.lost || r.offset < 0 {
			continue
		}
		acked := r.outcome == OutcomeAcked
		if !acked && !(r.outcome == "" && r.outstanding && r.positive) {
			continue
		}
		if r.offset < int64(len(log)) && log[r.offset].Record == r.id {
			continue
		}
		if p.heldByDeposed(r) {
			// A leader that was cut off still holds it and believes it
			// leads: lost only when it learns otherwise (heal).
			continue
		}
		if acked {
			r.outcome = OutcomeL
			r.settledAt = e.now
			pr.lost = append(pr.lost, r)
			e.emit(Event{Kind: KindLost, Record: r.id, Partition: p.id})
		} else {
			r.lost = true
		}
	}
}

// leaderFor is the broker the producer sends p's records to: the leader
// its metadata names. Kafka Flow's metadata is instant — the producer
// learns every leader change at once (in Kafka, from the
// NOT_LEADER_OR_FOLLOWER or disconnect that a change causes) — except
// from a leader that was cut off (isolate) and does not know it was
// replaced: it keeps answering, so nothing tells the producer, which
// keeps sending to it until its next metadata refresh (every
// metadata.max.age beats, or after a NOT_LEADER_OR_FOLLOWER).
func (e *engine) leaderFor(p *partition) int {
	return e.metadataLeader(&e.prod.meta, p)
}

// metadataLeader is the leader of p that a client's metadata (meta, one
// leader per partition, grown as partitions appear) names: the current
// one, except an old leader cut off by isolate that was replaced without
// knowing it, which stays named until the client's refresh clears meta.
// The producer and every consumer group keep their own meta
// (Kafka's Metadata, one per client).
//
// Not inlined, for the playground module's size budget (see
// consumerGroup.refreshMetadata).
//
//go:noinline
func (e *engine) metadataLeader(meta *[]int, p *partition) int {
	for len(*meta) <= p.id {
		*meta = append(*meta, e.parts[len(*meta)].leader)
	}
	if old := (*meta)[p.id]; old != p.leader && p.deposedBy(old) != nil {
		return old
	}
	(*meta)[p.id] = p.leader
	return p.leader
}

// refreshMetadata is the producer's metadata update (Metadata.update,
// metadata.max.age or requestUpdate): it learns every partition's current
// leader; a stale entry it corrects is told.
func (e *engine) refreshMetadata() {
	pr := &e.prod
	pr.metaAt = e.now
	for i, old := range pr.meta {
		if cur := e.parts[i].leader; old != cur {
			pr.meta[i] = cur
			if e.parts[i].deposedBy(old) != nil {
				e.emit(Event{Kind: KindMetadata, Partition: i, Broker: old, Leader: cur})
			}
		}
	}
}
