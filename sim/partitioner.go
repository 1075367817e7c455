package sim

// Murmur2 returns the 32-bit murmur2 hash of b as a signed int32, exactly
// as Kafka's Utils.murmur2 computes it (seed 0x9747b28c, multiplier
// 0x5bd1e995, shift 24; little-endian 4-byte blocks; the tail folded in
// fall-through order). Kafka's producer hashes a key's serialized bytes
// with it (BuiltInPartitioner.partitionForKey).
func Murmur2(b []byte) int32 {
	const (
		seed uint32 = 0x9747b28c
		m    uint32 = 0x5bd1e995
		r           = 24
	)
	n := len(b)
	h := seed ^ uint32(n)
	full := n &^ 3
	for i := 0; i < full; i += 4 {
		k := uint32(b[i]) | uint32(b[i+1])<<8 | uint32(b[i+2])<<16 | uint32(b[i+3])<<24
		k *= m
		k ^= k >> r
		k *= m
		h *= m
		h ^= k
	}
	switch n & 3 {
	case 3:
		h ^= uint32(b[full+2]) << 16
		fallthrough
	case 2:
		h ^= uint32(b[full+1]) << 8
		fallthrough
	case 1:
		h ^= uint32(b[full])
		h *= m
	}
	h ^= h >> 13
	h *= m
	h ^= h >> 15
	return int32(h)
}

// PartitionFor returns the partition (0 … partitions−1) Kafka's default
// partitioner picks for a keyed record: toPositive(murmur2(UTF-8 bytes of
// key)) mod partitions, where toPositive clears the sign bit (x &
// 0x7fffffff, not an absolute value) and partitions counts every partition
// of the topic (BuiltInPartitioner.partitionForKey, Utils.toPositive).
// partitions must be at least 1.
func PartitionFor(key string, partitions int) int {
	if partitions < 1 {
		panic("sim: PartitionFor needs at least one partition")
	}
	h := Murmur2([]byte(key)) & 0x7fffffff
	return int(h) % partitions
}
