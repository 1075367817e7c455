package scenario

import (
	"strconv"
	"strings"

	"github.com/kafkaflow/kflowgen/sim"
	"github.com/kafkaflow/kflowgen/third_party/yaml"
)

// topic reads the topic mapping (n is nil when the fence leaves it out).
func (p *parser) topic(n *yaml.Node) {
	t := &p.sc.Topic
	t.Partitions = sim.DefaultPartitions
	t.ReplicationFactor = min(sim.DefaultReplicationFactor, p.sc.Brokers)
	t.MinInsyncReplicas = sim.DefaultMinInsyncReplicas
	t.ReplicaLagTimeMax = sim.DefaultReplicaLagTimeMax
	if !p.mapping(n, "topic", "{partitions: 1, replication.factor: 3}") {
		return
	}
	f := p.fields(n, sectionTopic)
	t.Partitions = p.intSetting(f["partitions"].val, "partitions", t.Partitions, 1, sim.MaxPartitions, true)
	if rf, ok := f["replication.factor"]; ok {
		v := p.intSetting(rf.val, "replication.factor", t.ReplicationFactor, 1, sim.MaxReplicationFactor, true)
		if !p.bad["replication.factor"] && !p.bad["brokers"] && v > p.sc.Brokers {
			// Kafka's own words (InvalidReplicationFactorException):
			// "Replication factor: 3 larger than available brokers: 1."
			there := "there are only " + plural(p.sc.Brokers, "broker")
			if p.sc.Brokers == 1 {
				there = "there is only 1 broker"
			}
			p.errorf(rf.val, "replication.factor %d needs %d brokers, one for each replica, but %s (Kafka refuses such a topic with INVALID_REPLICATION_FACTOR)", v, v, there)
			p.bad["replication.factor"] = true
		}
		t.ReplicationFactor = v
	}
	// min.insync.replicas may exceed the replication factor: Kafka then
	// refuses every acks=all write, which a figure may want to show.
	t.MinInsyncReplicas = p.intSetting(f["min.insync.replicas"].val, "min.insync.replicas", t.MinInsyncReplicas, 1, sim.MaxBrokers, true)
	t.ReplicaLagTimeMax = p.intSetting(f["replica.lag.time.max"].val, "replica.lag.time.max", t.ReplicaLagTimeMax, 1, sim.MaxBeats, true)
}

// producer reads the producer mapping.
func (p *parser) producer(n *yaml.Node) {
	pr := &p.sc.Producer
	*pr = sim.ProducerConfig{
		Acks:              sim.DefaultAcks,
		MaxInFlight:       sim.DefaultMaxInFlight,
		Records:           sim.DefaultRecords,
		Keys:              append([]string(nil), sim.DefaultKeys...),
		Interval:          sim.DefaultInterval,
		Start:             sim.DefaultStart,
		DeliveryTimeout:   sim.DefaultDeliveryTimeout,
		RequestTimeout:    sim.DefaultRequestTimeout,
		RetryBackoff:      sim.DefaultRetryBackoff,
		Retries:           sim.DefaultRetries,
		EnableIdempotence: sim.DefaultEnableIdempotence,
		MetadataMaxAge:    sim.DefaultMetadataMaxAge,
	}
	if !p.mapping(n, "producer", "{acks: all, records: 6}") {
		return
	}
	f := p.fields(n, sectionProducer)
	if a, ok := f["acks"]; ok {
		if v, ok := p.acks(a.val); ok {
			pr.Acks = v
		} else {
			p.bad["acks"] = true
		}
	}
	pr.MaxInFlight = p.intSetting(f["max.in.flight.requests.per.connection"].val, "max.in.flight.requests.per.connection", pr.MaxInFlight, 1, sim.MaxRecords, true)
	pr.Records = p.intSetting(f["records"].val, "records", pr.Records, 1, sim.MaxRecords, true)
	if k, ok := f["keys"]; ok {
		if keys, ok := p.keys(k.val); ok {
			pr.Keys = keys
		} else {
			p.bad["keys"] = true
		}
	}
	pr.Interval = p.intSetting(f["interval"].val, "interval", pr.Interval, 1, sim.MaxBeats, true)
	if s, ok := f["start"]; ok {
		last := p.sc.Beats
		if p.bad["beats"] {
			last = sim.MaxBeats
		}
		v, ok := p.integer(s.val, "start", 1, sim.MaxBeats, true)
		switch {
		case !ok:
		case int(v) > last:
			p.errorf(s.val, "start %d is after the last beat (beats: %d)", v, last)
		default:
			pr.Start = int(v)
		}
	}
	pr.DeliveryTimeout = p.intSetting(f["delivery.timeout"].val, "delivery.timeout", pr.DeliveryTimeout, 1, sim.MaxBeats, true)
	pr.RequestTimeout = p.intSetting(f["request.timeout"].val, "request.timeout", pr.RequestTimeout, 1, sim.MaxBeats, true)
	pr.RetryBackoff = p.intSetting(f["retry.backoff"].val, "retry.backoff", pr.RetryBackoff, 1, sim.MaxBeats, true)
	pr.MetadataMaxAge = p.intSetting(f["metadata.max.age"].val, "metadata.max.age", pr.MetadataMaxAge, 1, sim.MaxBeats, true)
	// retries takes Kafka's own range, 0 to Integer.MAX_VALUE.
	pr.Retries = p.intSetting(f["retries"].val, "retries", pr.Retries, 0, sim.MaxRetries, false)
	if v, ok := f["enable.idempotence"]; ok {
		if b, ok := p.boolean(v.val, "enable.idempotence"); ok {
			pr.EnableIdempotence = b
			p.idempotenceNeeds(v.val, f)
		}
	}
	// Kafka (KafkaProducer.configureDeliveryTimeout) requires
	// delivery.timeout.ms >= linger.ms + request.timeout.ms: an explicit
	// smaller value is a ConfigException, a default one is raised to the
	// sum. Kafka Flow sends each record as it is created (no linger).
	if d, set := f["delivery.timeout"]; set {
		if !p.bad["delivery.timeout"] && !p.bad["request.timeout"] && pr.DeliveryTimeout < pr.RequestTimeout {
			p.errorf(d.val, "delivery.timeout %d is shorter than request.timeout %d: Kafka refuses this (delivery.timeout.ms must be at least linger.ms + request.timeout.ms, and Kafka Flow has no linger)", pr.DeliveryTimeout, pr.RequestTimeout)
		}
	} else if pr.DeliveryTimeout < pr.RequestTimeout {
		pr.DeliveryTimeout = pr.RequestTimeout
	}
}

// idempotenceNeeds checks what an explicit enable.idempotence=true requires
// (ProducerConfig.postProcessAndValidateIdempotenceConfigs, a
// ConfigException in Kafka): acks=all, retries above 0, and at most 5
// requests in flight, since the leader keeps the sequence numbers of a
// producer's last five batches.
func (p *parser) idempotenceNeeds(at *yaml.Node, f map[string]field) {
	pr := &p.sc.Producer
	if !pr.EnableIdempotence {
		return
	}
	if !p.bad["acks"] && pr.Acks != sim.AcksAll {
		p.errorf(at, "enable.idempotence needs acks: all, but acks is %s (Kafka: \"Must set acks to all in order to use the idempotent producer\")", pr.Acks)
	}
	if !p.bad["retries"] && pr.Retries == 0 {
		n := at
		if r, ok := f["retries"]; ok {
			n = r.val
		}
		p.errorf(n, "enable.idempotence needs retries above 0, since a producer that never resends has nothing to deduplicate (Kafka: \"Must set retries to non-zero when using the idempotent producer\"); add retries: 1 or more")
	}
	if !p.bad["max.in.flight.requests.per.connection"] && pr.MaxInFlight > 5 {
		p.errorf(at, "enable.idempotence allows at most 5 requests in flight (the leader remembers a producer's last 5 batches), but max.in.flight.requests.per.connection is %d", pr.MaxInFlight)
	}
}

// acks reads 0, 1, -1 or all.
func (p *parser) acks(n *yaml.Node) (sim.Acks, bool) {
	s, ok := p.scalar(n, "acks", "0, 1 or all")
	if !ok {
		return 0, false
	}
	if !isQuoted(n) || s == "all" {
		switch s {
		case "0":
			return sim.AcksNone, true
		case "1":
			return sim.AcksLeader, true
		case "all", "-1":
			return sim.AcksAll, true
		}
	}
	if isQuoted(n) && (s == "0" || s == "1" || s == "-1") {
		p.errorf(n, "%q is quoted text, but acks is the number 0, 1 or -1, or the word all (remove the quotes)", s)
		return 0, false
	}
	p.errorf(n, "%q is not a valid acks: use 0, 1 or all (-1 means all)", s)
	return 0, false
}

// keys reads the producer's key list: 1..MaxKeys keys of text.
func (p *parser) keys(n *yaml.Node) ([]string, bool) {
	if n.Kind == yaml.ScalarNode && !isNull(n) {
		p.errorf(n, "keys must be a list such as [blue, green], not %s", kindName(n))
		return nil, false
	}
	items := p.list(n, "keys", "key names")
	if n.Kind == yaml.SequenceNode && len(items) == 0 || isNull(n) {
		p.errorf(n, "keys is empty: name at least one key, such as [blue]")
		return nil, false
	}
	if len(items) > sim.MaxKeys {
		p.errorf(items[sim.MaxKeys], "too many keys: Kafka Flow allows at most %d", sim.MaxKeys)
		return nil, false
	}
	var out []string
	ok := len(items) > 0
	for _, it := range items {
		s, good := p.text(it, "a key", maxKeyLen)
		switch {
		case !good:
			ok = false
		case s == "":
			p.errorf(it, "a key cannot be empty")
			ok = false
		default:
			out = append(out, s)
		}
	}
	return out, ok
}

// consumerGroups reads consumer.groups.
func (p *parser) consumerGroups(n *yaml.Node) {
	for _, it := range p.entries(n, "consumer.groups", "groups such as {id: readers, members: 2}") {
		if !p.mapping(it, "a consumer.groups entry", "{id: readers, members: 2}") {
			continue
		}
		g := sim.ConsumerGroupConfig{
			Members:            sim.DefaultMembers,
			AutoOffsetReset:    sim.DefaultAutoOffsetReset,
			Assignor:           sim.DefaultAssignor,
			AutoCommitInterval: sim.DefaultAutoCommitInterval,
			SessionTimeout:     sim.DefaultSessionTimeout,
			Processing:         sim.DefaultProcessing,
			MaxPollInterval:    sim.DefaultMaxPollInterval,
			MaxPollRecords:     sim.DefaultMaxPollRecords,
			MetadataMaxAge:     sim.DefaultMetadataMaxAge,
			Pos:                posOf(it),
		}
		f := p.fields(it, sectionConsumer)
		g.ID = p.groupID(it, f)
		before := len(p.errs)
		g.Members = p.intSetting(f["members"].val, "members", g.Members, 0, sim.MaxMembers, true)
		unknown := len(p.errs) > before // its member names cannot be checked
		if v, ok := f["auto.offset.reset"]; ok {
			if s, ok := p.choice(v.val, "auto.offset.reset", "earliest", "latest"); ok {
				g.AutoOffsetReset = s
			}
		}
		if v, ok := f["assignor"]; ok {
			if s, ok := p.choice(v.val, "assignor", "uniform", "range"); ok {
				g.Assignor = s
			}
		}
		g.AutoCommitInterval = p.intSetting(f["auto.commit.interval"].val, "auto.commit.interval", g.AutoCommitInterval, 1, sim.MaxBeats, true)
		g.SessionTimeout = p.intSetting(f["session.timeout"].val, "session.timeout", g.SessionTimeout, 1, sim.MaxBeats, true)
		g.Processing = p.intSetting(f["processing"].val, "processing", g.Processing, 1, sim.MaxBeats, true)
		g.MaxPollInterval = p.intSetting(f["max.poll.interval"].val, "max.poll.interval", g.MaxPollInterval, 1, sim.MaxBeats, true)
		g.MaxPollRecords = p.intSetting(f["max.poll.records"].val, "max.poll.records", g.MaxPollRecords, 1, sim.MaxRecords, true)
		g.MetadataMaxAge = p.intSetting(f["metadata.max.age"].val, "metadata.max.age", g.MetadataMaxAge, 1, sim.MaxBeats, true)
		if p.addGroup(it, g.ID, false, g.Members, 0, unknown) {
			p.sc.ConsumerGroups = append(p.sc.ConsumerGroups, g)
		}
	}
}

// shareGroups reads share.groups.
func (p *parser) shareGroups(n *yaml.Node) {
	for _, it := range p.entries(n, "share.groups", "groups such as {id: workers, members: 3}") {
		if !p.mapping(it, "a share.groups entry", "{id: workers, members: 3}") {
			continue
		}
		g := sim.ShareGroupConfig{
			Members:              sim.DefaultMembers,
			ShareAutoOffsetReset: sim.DefaultShareAutoOffset,
			RecordLockDuration:   sim.DefaultRecordLockDuration,
			DeliveryCountLimit:   sim.DefaultDeliveryCountLimit,
			Processing:           sim.DefaultProcessing,
			Pos:                  posOf(it),
		}
		f := p.fields(it, sectionShare)
		g.ID = p.groupID(it, f)
		before := len(p.errs)
		g.Members = p.intSetting(f["members"].val, "members", g.Members, 0, sim.MaxMembers, true)
		unknown := len(p.errs) > before // its member names cannot be checked
		if v, ok := f["share.auto.offset.reset"]; ok {
			if s, ok := p.choice(v.val, "share.auto.offset.reset", "earliest", "latest"); ok {
				g.ShareAutoOffsetReset = s
			}
		}
		g.RecordLockDuration = p.intSetting(f["group.share.record.lock.duration"].val, "group.share.record.lock.duration", g.RecordLockDuration, 1, sim.MaxBeats, true)
		// Kafka accepts group.share.delivery.count.limit from 2 to 10.
		g.DeliveryCountLimit = p.intSetting(f["group.share.delivery.count.limit"].val, "group.share.delivery.count.limit", g.DeliveryCountLimit, 2, 10, false)
		g.Processing = p.intSetting(f["processing"].val, "processing", g.Processing, 1, sim.MaxBeats, true)
		if v, ok := f["slow.key"]; ok {
			if s, ok := p.text(v.val, "slow.key", maxKeyLen); ok {
				if !p.bad["keys"] && !contains(p.sc.Producer.Keys, s) {
					p.errorf(v.val, "slow.key %q is not one of the producer's keys %s", s, keyList(p.sc.Producer.Keys))
				} else {
					g.SlowKey = s
				}
			}
		}
		if p.addGroup(it, g.ID, true, g.Members, g.DeliveryCountLimit, unknown) {
			p.sc.ShareGroups = append(p.sc.ShareGroups, g)
		}
	}
}

func keyList(keys []string) string {
	s := "["
	for i, k := range keys {
		if i > 0 {
			s += " "
		}
		s += strconv.Quote(k)
	}
	return s + "]"
}

// groupID reads a group entry's required id.
func (p *parser) groupID(entry *yaml.Node, f map[string]field) string {
	v, ok := f["id"]
	if !ok {
		p.errorf(entry, "this group has no id: add one such as \"id: readers\" (members are named ID-1, ID-2, …)")
		return ""
	}
	id, _ := p.ident(v.val, "group id")
	return id
}

// addGroup registers a group for the timeline and expect checks; it
// enforces unique ids and the MaxGroups limit. It returns false when the
// group is not to be kept. unknown says its members setting was an error.
func (p *parser) addGroup(entry *yaml.Node, id string, share bool, members, limit int, unknown bool) bool {
	if len(p.groups) == sim.MaxGroups {
		p.errorf(entry, "too many groups: Kafka Flow allows at most %d consumer and share groups together", sim.MaxGroups)
		return false
	}
	if id == "" {
		p.bad["groups"] = true // references to it would only repeat the problem
		return false
	}
	for _, g := range p.groups {
		if g.id == id {
			p.errorf(entry, "duplicate group id %q: consumer and share groups need distinct ids", id)
			return false
		}
		// Members are named GROUP-N, so "g-1" would read as a member of
		// group g in every caption (and g as a member of "g" minus one).
		if memberOf(id, g.id) || memberOf(g.id, id) {
			a, b := g.id, id
			if memberOf(g.id, id) {
				a, b = id, g.id
			}
			p.errorf(entry, "group id %q reads like a member of group %q (members are named %s-1, %s-2, …): choose another id", b, a, a, a)
			return false
		}
	}
	p.groups = append(p.groups, &group{share: share, id: id, initial: members, limit: limit, unknown: unknown})
	return true
}

// memberOf reports whether name has the form of a member of group:
// GROUP-N, N a whole number from 1 (members are numbered from 1).
func memberOf(name, group string) bool {
	n, ok := strings.CutPrefix(name, group+"-")
	return ok && isDecimal(n) && !strings.HasPrefix(n, "+") && !strings.HasPrefix(n, "-") && !leadingZero(n) && n != "0"
}

// findGroup returns the group named id, or nil.
func (p *parser) findGroup(id string) *group {
	for _, g := range p.groups {
		if g.id == id {
			return g
		}
	}
	return nil
}

// groupNames lists the group ids for a hint.
func (p *parser) groupNames() string {
	if len(p.groups) == 0 {
		return "no groups are defined; add consumer.groups or share.groups"
	}
	s := "groups:"
	for _, g := range p.groups {
		s += " " + g.id
	}
	return s
}
