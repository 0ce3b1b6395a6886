import StreakCore
import StreakStorage
import StreakWire
import Testing

@testable import StreakServer

@Suite("Response caches are bounded by bytes")
struct ResponseCacheTests {
    static let limits = ResponseCacheLimits(entries: 100, bytes: 10_000, entryBytes: 3_000)

    @Test("the byte budget counts keys and values; an insert past it empties the cache first")
    func byteBudget() {
        var cache = BoundedResponseCache<Int, NoRecipe>(limits: Self.limits)
        let overhead = BoundedResponseCache<Int, NoRecipe>.overheadBytes
        for key in 0..<4 { cache.insert([UInt8](repeating: 1, count: 2_000), for: key, keyBytes: 400) }
        #expect(cache.count == 4 && cache.bytes == 4 * (2_400 + overhead))
        cache.insert([UInt8](repeating: 2, count: 2_000), for: 4, keyBytes: 400)  // would pass 10,000
        #expect(cache.count == 1 && cache[4]?.first == 2 && cache[0] == nil)
        #expect(cache.bytes <= Self.limits.bytes)
    }

    @Test("an entry over the per-entry bound is not cached; a big key counts like a big value")
    func entryBound() {
        var cache = BoundedResponseCache<Int, NoRecipe>(limits: Self.limits)
        cache.insert([UInt8](repeating: 1, count: 3_000), for: 1, keyBytes: 8)
        cache.insert([1], for: 2, keyBytes: 4 << 20)  // a 4 MiB request as the key
        cache.insert([1], for: 3, keyBytes: 8)
        #expect(cache[1] == nil && cache[2] == nil && cache[3] == [1] && cache.count == 1)
    }

    @Test("replacing an entry does not count it twice; the entry count still bounds")
    func replaceAndCount() {
        var cache = BoundedResponseCache<Int, NoRecipe>(
            limits: ResponseCacheLimits(entries: 3, bytes: 1 << 20, entryBytes: 1 << 20)
        )
        cache.insert([1, 2, 3], for: 1, keyBytes: 8)
        let once = cache.bytes
        cache.insert([4, 5, 6], for: 1, keyBytes: 8)
        #expect(cache.bytes == once && cache[1] == [4, 5, 6])
        for key in 2...4 { cache.insert([0], for: key, keyBytes: 8) }
        #expect(cache.count <= 3)
    }

    /// A recipe for the tests: the length the entry's value has once refreshed (-1: it cannot be).
    struct Length: CacheRecipe {
        var length: Int
        var isStale = false
    }

    @Test("a change keeps the entries whose recipe accepts it; a lookup refreshes a stale one at its new size")
    func reviseAndRefresh() {
        var cache = BoundedResponseCache<Int, Length>(limits: Self.limits)
        let overhead = BoundedResponseCache<Int, Length>.overheadBytes
        let value = [UInt8](repeating: 1, count: 100)
        cache.insert(value, for: 1, keyBytes: 10, recipe: Length(length: 200))
        cache.insert(value, for: 2, keyBytes: 10, recipe: Length(length: 3_000))
        cache.insert(value, for: 3, keyBytes: 10)
        cache.insert(value, for: 4, keyBytes: 10, recipe: Length(length: -1))
        cache.insert(value, for: 5, keyBytes: 10, recipe: Length(length: 0))
        // 3 has no recipe and 5 is refused: dropped. The others are stale, not yet changed.
        cache.revise { key, recipe in
            recipe.isStale = true
            return key != 5
        }
        #expect(cache.count == 3 && cache.bytes == 3 * (110 + overhead) && cache[1] == value)
        let refresh = { (recipe: inout Length, _: [UInt8]) -> [UInt8]? in
            recipe.isStale = false
            return recipe.length < 0 ? nil : [UInt8](repeating: 2, count: recipe.length)
        }
        var refreshes = 0
        let counted = { (recipe: inout Length, stale: [UInt8]) -> [UInt8]? in
            refreshes += 1
            return refresh(&recipe, stale)
        }
        #expect(cache.value(for: 1, refreshing: counted) == [UInt8](repeating: 2, count: 200))
        // Fresh now: not refreshed again.
        #expect(cache.value(for: 1, refreshing: counted)?.count == 200 && refreshes == 1)
        // Past the per-entry bound once refreshed, or unable to refresh: dropped.
        #expect(cache.value(for: 2, refreshing: refresh) == nil && cache.value(for: 4, refreshing: refresh) == nil)
        #expect(cache.count == 1 && cache.bytes == 10 + 200 + overhead)
        // Refreshed past the byte budget: emptied.
        for key in 6..<10 { cache.insert([1], for: key, keyBytes: 10, recipe: Length(length: 2_900, isStale: true)) }
        for key in 6..<9 { #expect(cache.value(for: key, refreshing: refresh)?.count == 2_900) }
        #expect(cache.count == 5 && cache.bytes == 10 + 200 + 3 * (10 + 2_900) + 10 + 1 + 5 * overhead)
        #expect(cache.value(for: 9, refreshing: refresh) != nil && cache.isEmpty && cache.bytes == 0)
    }

    @Test("keys hashed as a block of bytes: equal requests share an entry, requests a byte apart do not")
    func keysByRequestBytes() {
        var cache = BoundedResponseCache<ResponseKey, NoRecipe>(limits: Self.limits)
        let messages: [[UInt8]] = [[], [0], [0, 0], [1, 2], [1, 2, 0], [2, 1], Array(0..<200), Array(1...200)]
        for (position, message) in messages.enumerated() {
            cache.insert(
                [UInt8(position)],
                for: ResponseKey(method: .getHeatmap, todayDayNumber: 5, message: message),
                keyBytes: 8
            )
        }
        #expect(cache.count == messages.count)
        for (position, message) in messages.enumerated() {
            // The same bytes in another array find the entry.
            let key = ResponseKey(method: .getHeatmap, todayDayNumber: 5, message: Array(message[...]))
            #expect(cache[key] == [UInt8(position)])
            #expect(key.hashValue == ResponseKey(method: .getHeatmap, todayDayNumber: 5, message: message).hashValue)
            #expect(cache[ResponseKey(method: .getStreak, todayDayNumber: 5, message: message)] == nil)
            #expect(cache[ResponseKey(method: .getHeatmap, todayDayNumber: 6, message: message)] == nil)
        }
    }

    @Test("a user's cache and the builder cache keep their budgets whatever they are offered")
    func userAndBuilderCaches() {
        let limits = ResponseCacheLimits(entries: 512, bytes: 64 << 10, entryBytes: 16 << 10)
        let user = UserState(
            id: 1,
            data: UserData(habits: [], completions: [], settings: .defaults),
            cacheLimits: limits
        )
        for index in 0..<200 {
            let key = ResponseKey(
                method: .getHeatmap,
                todayDayNumber: index,
                message: [UInt8](repeating: 0, count: 1_000)
            )
            user.cache([UInt8](repeating: 1, count: 5_000), for: key, version: 0)
        }
        #expect(user.cacheUsage.bytes <= limits.bytes && user.cacheUsage.entries > 0)
        let huge = ResponseKey(method: .getHeatmap, todayDayNumber: 0, message: [UInt8](repeating: 0, count: 1 << 20))
        user.cache([1], for: huge, version: 0)
        #expect(user.cachedResponse(huge) == nil)

        let builders = BuilderCache(limit: 4_096, byteBudget: 32 << 10, entryLimit: 8 << 10)
        for index in 0..<500 {
            builders.store(
                [UInt8](repeating: 1, count: 4_000),
                for: .buildMonthLabels,
                [UInt8(index % 256), UInt8(index / 256)]
            )
        }
        #expect(builders.usage.bytes <= 32 << 10 && builders.usage.entries > 0)
        builders.store([UInt8](repeating: 1, count: 9_000), for: .buildHeatmap, [1])
        #expect(builders.lookup(.buildHeatmap, [1]) == nil)
    }
}
