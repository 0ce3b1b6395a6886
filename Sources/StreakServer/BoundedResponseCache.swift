/// How much a response cache may hold: entries, bytes, and bytes per entry.
struct ResponseCacheLimits: Sendable {
    /// The most entries.
    var entries: Int
    /// The most bytes, keys and values counted (with a fixed overhead per entry).
    var bytes: Int
    /// An entry larger than this (key and value) is not cached at all.
    var entryBytes: Int
}

/// Encoded responses by key, bounded by count and by bytes: a request of a few megabytes, or
/// its answer, cannot make the cache hold gigabytes. Emptied when an insert would pass a bound
/// (the simplest policy that keeps the hot entries cheap to look up; they come back at once).
struct BoundedResponseCache<Key: Hashable> {
    /// Bytes counted per entry besides its key and value: the dictionary slot and array headers.
    static var overheadBytes: Int { 64 }

    let limits: ResponseCacheLimits
    private var entries: [Key: (value: [UInt8], cost: Int)] = [:]
    /// The bytes counted for every entry held.
    private(set) var bytes = 0

    init(limits: ResponseCacheLimits) {
        self.limits = limits
    }

    /// The number of entries held.
    var count: Int { entries.count }

    /// The response cached under `key`.
    subscript(key: Key) -> [UInt8]? { entries[key]?.value }

    /// Caches `value` under `key`, whose own size is `keyBytes`; skipped when the entry is over
    /// the per-entry bound.
    mutating func insert(_ value: [UInt8], for key: Key, keyBytes: Int) {
        let cost = keyBytes + value.count + Self.overheadBytes
        guard cost <= limits.entryBytes else { return }
        if let old = entries.removeValue(forKey: key) { bytes -= old.cost }
        if entries.count >= limits.entries || bytes + cost > limits.bytes { removeAll() }
        entries[key] = (value, cost)
        bytes += cost
    }

    /// Empties the cache.
    mutating func removeAll() {
        entries.removeAll(keepingCapacity: entries.count <= 1024)
        bytes = 0
    }
}
