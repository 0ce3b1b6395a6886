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
///
/// An entry may keep a `Recipe`: how its response was made, so that `revise` can bring it up to
/// date after a change instead of dropping it.
struct BoundedResponseCache<Key: Hashable, Recipe> {
    /// Bytes counted per entry besides its key and value: the dictionary slot and array headers.
    static var overheadBytes: Int { 64 }

    private struct Entry {
        var value: [UInt8]
        var cost: Int
        var recipe: Recipe?
    }

    let limits: ResponseCacheLimits
    private var entries: [Key: Entry] = [:]
    /// The bytes counted for every entry held.
    private(set) var bytes = 0

    init(limits: ResponseCacheLimits) {
        self.limits = limits
    }

    /// The number of entries held.
    var count: Int { entries.count }

    /// Whether no entry is held.
    var isEmpty: Bool { entries.isEmpty }

    /// The response cached under `key`.
    subscript(key: Key) -> [UInt8]? { entries[key]?.value }

    /// Caches `value` under `key`, whose own size (with its recipe's) is `keyBytes`; skipped when
    /// the entry is over the per-entry bound.
    mutating func insert(_ value: [UInt8], for key: Key, keyBytes: Int, recipe: Recipe? = nil) {
        let cost = keyBytes + value.count + Self.overheadBytes
        guard cost <= limits.entryBytes else { return }
        if let old = entries.removeValue(forKey: key) { bytes -= old.cost }
        if entries.count >= limits.entries || bytes + cost > limits.bytes { removeAll() }
        entries[key] = Entry(value: value, cost: cost, recipe: recipe)
        bytes += cost
    }

    /// Replaces every entry that has a recipe by what `revise` makes of it, and drops the others
    /// and those `revise` returns nil for. Emptied when the revised entries pass a bound.
    mutating func revise(_ revise: (_ value: [UInt8], _ recipe: Recipe) -> [UInt8]?) {
        guard !entries.isEmpty else { return }
        var dropped: [Key] = []
        var index = entries.startIndex
        while index != entries.endIndex {
            let entry = entries.values[index]
            if let recipe = entry.recipe, let value = revise(entry.value, recipe),
                entry.cost - entry.value.count + value.count <= limits.entryBytes
            {
                let cost = entry.cost - entry.value.count + value.count
                bytes += cost - entry.cost
                entries.values[index] = Entry(value: value, cost: cost, recipe: recipe)
            } else {
                dropped.append(entries.keys[index])
            }
            entries.formIndex(after: &index)
        }
        for key in dropped { bytes -= entries.removeValue(forKey: key)?.cost ?? 0 }
        if bytes > limits.bytes { removeAll() }
    }

    /// Empties the cache.
    mutating func removeAll() {
        entries.removeAll(keepingCapacity: entries.count <= 1024)
        bytes = 0
    }
}
