/// How much a response cache may hold: entries, bytes, and bytes per entry.
struct ResponseCacheLimits: Sendable {
    /// The most entries.
    var entries: Int
    /// The most bytes, keys and values counted (with a fixed overhead per entry).
    var bytes: Int
    /// An entry larger than this (key and value) is not cached at all.
    var entryBytes: Int
}

/// How a cached response was made, kept with it so that a change can mark it stale rather than
/// drop it (`BoundedResponseCache.revise`), and a lookup bring it up to date
/// (`BoundedResponseCache.value(for:refreshing:)`).
protocol CacheRecipe {
    /// Whether the response must be brought up to date before it is used.
    var isStale: Bool { get }
}

/// The recipe of a cache whose responses never change: there is none.
enum NoRecipe: CacheRecipe {
    var isStale: Bool {
        switch self {}
    }
}

/// Encoded responses by key, bounded by count and by bytes: a request of a few megabytes, or
/// its answer, cannot make the cache hold gigabytes. Emptied when an insert (or a refresh) would
/// pass a bound
/// (the simplest policy that keeps the hot entries cheap to look up; they come back at once).
///
/// An entry may keep a `Recipe`: how its response was made, so that a change can mark it stale
/// instead of dropping it, and the next lookup bring it up to date.
struct BoundedResponseCache<Key: Hashable, Recipe: CacheRecipe> {
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

    /// The response cached under `key`, stale or not.
    subscript(key: Key) -> [UInt8]? { entries[key]?.value }

    /// The response cached under `key`; a stale one is first replaced by what `refresh` makes
    /// of it (with its recipe, which `refresh` leaves current), or dropped when that is nil.
    mutating func value(
        for key: Key,
        refreshing refresh: (inout Recipe, [UInt8]) -> [UInt8]?
    ) -> [UInt8]? {
        guard let index = entries.index(forKey: key) else { return nil }
        // Read in place (the getter would copy the entry, recipe and all): a fresh answer, the
        // usual case, costs no copy of its recipe.
        if let fresh = Self.freshValue(&entries.values[index]) { return fresh }
        let entry = entries.values[index]
        guard var recipe = entry.recipe else { return entry.value }
        let cost = entry.cost - entry.value.count
        guard let value = refresh(&recipe, entry.value), cost + value.count <= limits.entryBytes else {
            entries.remove(at: index)
            bytes -= entry.cost
            return nil
        }
        entries.values[index] = Entry(value: value, cost: cost + value.count, recipe: recipe)
        bytes += value.count - entry.value.count
        if bytes > limits.bytes {
            removeAll()
        }
        return value
    }

    /// The entry's response unless its recipe says it is stale.
    private static func freshValue(_ entry: inout Entry) -> [UInt8]? {
        entry.recipe?.isStale == true ? nil : entry.value
    }

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

    /// After a change: keeps the entries whose recipe `note` accepts (and updates, e.g. marks
    /// stale), given their key, and drops the others and those without a recipe.
    mutating func revise(_ note: (Key, inout Recipe) -> Bool) {
        var dropped: [Key] = []
        var index = entries.startIndex
        while index != entries.endIndex {
            if var recipe = entries.values[index].recipe, note(entries.keys[index], &recipe) {
                entries.values[index].recipe = recipe
            } else {
                dropped.append(entries.keys[index])
            }
            entries.formIndex(after: &index)
        }
        for key in dropped { bytes -= entries.removeValue(forKey: key)?.cost ?? 0 }
    }

    /// Empties the cache.
    mutating func removeAll() {
        entries.removeAll(keepingCapacity: entries.count <= 1024)
        bytes = 0
    }
}
