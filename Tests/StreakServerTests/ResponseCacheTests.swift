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
        var cache = BoundedResponseCache<Int, Never>(limits: Self.limits)
        let overhead = BoundedResponseCache<Int, Never>.overheadBytes
        for key in 0..<4 { cache.insert([UInt8](repeating: 1, count: 2_000), for: key, keyBytes: 400) }
        #expect(cache.count == 4 && cache.bytes == 4 * (2_400 + overhead))
        cache.insert([UInt8](repeating: 2, count: 2_000), for: 4, keyBytes: 400)  // would pass 10,000
        #expect(cache.count == 1 && cache[4]?.first == 2 && cache[0] == nil)
        #expect(cache.bytes <= Self.limits.bytes)
    }

    @Test("an entry over the per-entry bound is not cached; a big key counts like a big value")
    func entryBound() {
        var cache = BoundedResponseCache<Int, Never>(limits: Self.limits)
        cache.insert([UInt8](repeating: 1, count: 3_000), for: 1, keyBytes: 8)
        cache.insert([1], for: 2, keyBytes: 4 << 20)  // a 4 MiB request as the key
        cache.insert([1], for: 3, keyBytes: 8)
        #expect(cache[1] == nil && cache[2] == nil && cache[3] == [1] && cache.count == 1)
    }

    @Test("replacing an entry does not count it twice; the entry count still bounds")
    func replaceAndCount() {
        var cache = BoundedResponseCache<Int, Never>(
            limits: ResponseCacheLimits(entries: 3, bytes: 1 << 20, entryBytes: 1 << 20)
        )
        cache.insert([1, 2, 3], for: 1, keyBytes: 8)
        let once = cache.bytes
        cache.insert([4, 5, 6], for: 1, keyBytes: 8)
        #expect(cache.bytes == once && cache[1] == [4, 5, 6])
        for key in 2...4 { cache.insert([0], for: key, keyBytes: 8) }
        #expect(cache.count <= 3)
    }

    @Test("revising keeps the entries with a recipe that revise, counted at their new size")
    func revise() {
        var cache = BoundedResponseCache<Int, Int>(limits: Self.limits)
        let overhead = BoundedResponseCache<Int, Int>.overheadBytes
        cache.insert([UInt8](repeating: 1, count: 100), for: 1, keyBytes: 10, recipe: 200)
        cache.insert([UInt8](repeating: 1, count: 100), for: 2, keyBytes: 10, recipe: 3_000)
        cache.insert([UInt8](repeating: 1, count: 100), for: 3, keyBytes: 10)
        cache.insert([UInt8](repeating: 1, count: 100), for: 4, keyBytes: 10, recipe: -1)
        // The recipe says how long the revised value is (-1: it cannot be revised).
        cache.revise { _, recipe in recipe < 0 ? nil : [UInt8](repeating: 2, count: recipe) }
        // 2 is over the per-entry bound now; 3 has no recipe; 4 cannot be revised.
        #expect(cache.count == 1 && cache[1] == [UInt8](repeating: 2, count: 200))
        #expect(cache.bytes == 10 + 200 + overhead)
        // Revised past the byte budget: emptied.
        for key in 5..<9 { cache.insert([1], for: key, keyBytes: 10, recipe: 2_900) }
        cache.revise { _, recipe in [UInt8](repeating: 2, count: recipe) }
        #expect(cache.count == 0 && cache.bytes == 0)
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
