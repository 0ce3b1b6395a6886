import Foundation
import StreakCore
import StreakStorage
import StreakWire
import Synchronization

/// One user's data held in memory, loaded once from the store and updated after every
/// acknowledged write, with a cache of encoded responses that any write empties.
final class UserState: Sendable {
    /// The user.
    let id: UserID

    private struct Contents {
        var data: UserData
        var version: UInt64 = 0
        var cache: BoundedResponseCache<ResponseKey>
        /// Streak summaries of the current version by `as_of` day number: concurrent writes of one
        /// user answer from whatever state is current, and share one computation.
        var summaries: [Int: StreakSummary] = [:]
        var clock = TodayClock()

        /// Today in the user's time zone, as the user's day start says.
        mutating func today(now: Date) -> CivilDate {
            clock.today(in: data.settings.timeZone, dayStart: data.settings.dayStart, now: now)
        }
    }

    private let contents: Mutex<Contents>

    init(id: UserID, data: UserData, cacheLimits: ResponseCacheLimits) {
        self.id = id
        contents = Mutex(Contents(data: data, cache: BoundedResponseCache(limits: cacheLimits)))
    }

    /// A consistent copy of the data, its version and today's date in the user's zone.
    struct Snapshot: Sendable {
        var data: UserData
        var version: UInt64
        var today: CivilDate
    }

    /// The cached response for a read, or the key to cache it under once computed.
    func cachedResponse(_ method: WireMethod, message: [UInt8], now: Date) -> (key: ResponseKey, bytes: [UInt8]?) {
        contents.withLock { contents in
            let today = contents.today(now: now)
            let key = ResponseKey(method: method, todayDayNumber: today.dayNumber, message: message)
            return (key, contents.cache[key])
        }
    }

    /// The cached response under `key`, if any.
    func cachedResponse(_ key: ResponseKey) -> [UInt8]? {
        contents.withLock { $0.cache[key] }
    }

    /// The data as it is now.
    func snapshot(now: Date) -> Snapshot {
        contents.withLock { contents in
            let today = contents.today(now: now)
            return Snapshot(data: contents.data, version: contents.version, today: today)
        }
    }

    /// Caches a response computed from the snapshot of `version`, unless a write came since.
    func cache(_ bytes: [UInt8], for key: ResponseKey, version: UInt64) {
        contents.withLock { contents in
            guard contents.version == version else { return }
            contents.cache.insert(bytes, for: key, keyBytes: key.message.count + 16)
        }
    }

    /// The entries and bytes the response cache holds.
    var cacheUsage: (entries: Int, bytes: Int) {
        contents.withLock { ($0.cache.count, $0.cache.bytes) }
    }

    /// The streak summary as of `asOf` (nil: today) in the current state, shared by everyone
    /// who asks before the next write.
    /// - Returns: the summary and the snapshot it was computed from.
    func currentStreak(asOf: CivilDate?, now: Date) -> (StreakSummary, Snapshot) {
        let (snapshot, cached) = contents.withLock { contents in
            let today = contents.today(now: now)
            let snapshot = Snapshot(data: contents.data, version: contents.version, today: today)
            return (snapshot, contents.summaries[(asOf ?? today).dayNumber])
        }
        if let cached { return (cached, snapshot) }
        let summary = snapshot.data.streakSummary(asOf: asOf ?? snapshot.today)
        contents.withLock { contents in
            if contents.version == snapshot.version { contents.summaries[summary.asOf.dayNumber] = summary }
        }
        return (summary, snapshot)
    }

    /// Applies an acknowledged write and empties the cache.
    /// - Returns: what `body` returns, and the snapshot after the change.
    func update<T>(now: Date, _ body: (inout UserData) throws -> T) rethrows -> (T, Snapshot) {
        try contents.withLock { contents in
            let result = try body(&contents.data)
            contents.version &+= 1
            contents.cache.removeAll()
            contents.summaries.removeAll(keepingCapacity: true)
            let today = contents.today(now: now)
            return (result, Snapshot(data: contents.data, version: contents.version, today: today))
        }
    }
}
