import FoundationEssentials
import StreakCore
import StreakStorage
import StreakWire
import Synchronization

/// One user's data held in memory, loaded from the store and updated after every acknowledged
/// write, with a cache of encoded responses that a write empties (except the heatmaps it can
/// patch: `HeatmapRecipe`).
///
/// The registry may evict it (`retire`) when it was used least recently and nothing pins it: a
/// write between its validation and its answer, or an open Watch (which the registry checks).
/// A retired state keeps its data for whoever still holds it, but takes no more changes.
final class UserState: Sendable {
    /// The user.
    let id: UserID

    private struct Contents {
        var data: UserData
        var version: UInt64 = 0
        var cache: BoundedResponseCache<ResponseKey, HeatmapRecipe>
        /// Streak summaries of the current version by `as_of` day number: concurrent writes of one
        /// user answer from whatever state is current, and share one computation.
        var summaries: [Int: StreakSummary] = [:]
        var clock = TodayClock()
        /// The estimate of `data`'s heap bytes, recounted when it changes.
        var dataBytes = 0
        /// What the meter holds for this state (0 once retired).
        var counted = 0
        var retired = false
        /// Writes between their validation and their answer: the state cannot be retired.
        var pins = 0
        var ownWrites = OwnWrites()

        /// Today in the user's time zone, as the user's day start says.
        mutating func today(now: Date) -> CivilDate {
            clock.today(in: data.settings.timeZone, dayStart: data.settings.dayStart, now: now)
        }

        /// The bytes this state takes: the object, its data and its cached answers.
        var bytes: Int {
            UserState.fixedBytes + dataBytes + cache.bytes + summaries.count * UserState.summaryBytes
        }
    }

    private let contents: Mutex<Contents>
    /// Serialises the pushes to the user's watchers (`StreakService.notifyWatchers`).
    private let notifications = Mutex(())
    private let meter: MemoryMeter
    /// When it was last used (the meter's clock), for least-recently-used eviction.
    private let lastUse: Atomic<UInt64>

    /// Bytes counted for every user besides its data and cached answers: this object, its lock
    /// and contents, the registry's entry and the zone name of its clock.
    static let fixedBytes = HeapEstimate.chunk(48 + MemoryLayout<Contents>.stride) + 96
    /// Bytes counted per cached streak summary (a dictionary slot and the summary).
    static let summaryBytes = 32 + MemoryLayout<StreakSummary>.stride
    /// What one change of the data is taken to add between two exact estimates (`recount`).
    static let bytesPerChange = 16

    init(id: UserID, data: UserData, cacheLimits: ResponseCacheLimits, meter: MemoryMeter = MemoryMeter()) {
        self.id = id
        self.meter = meter
        lastUse = Atomic(meter.tick)
        var contents = Contents(data: data, cache: BoundedResponseCache(limits: cacheLimits))
        contents.dataBytes = data.estimatedHeapBytes
        contents.counted = contents.bytes
        meter.add(contents.counted)
        self.contents = Mutex(contents)
    }

    /// A consistent copy of the data, its version and today's date in the user's zone.
    struct Snapshot: Sendable {
        var data: UserData
        var version: UInt64
        var today: CivilDate
    }

    /// Runs `body` while no other push to this user's watchers runs.
    func withNotificationLock<T>(_ body: () throws -> T) rethrows -> T {
        try notifications.withLock { _ in try body() }
    }

    // MARK: Use and eviction

    /// Marks the state used now.
    func touch() {
        lastUse.store(meter.tick, ordering: .relaxed)
    }

    /// When it was last used (the meter's clock).
    var lastUsed: UInt64 { lastUse.load(ordering: .relaxed) }

    /// Whether the registry evicted it.
    var isRetired: Bool { contents.withLock { $0.retired } }

    /// The bytes this state counts against the budget now.
    var countedBytes: Int { contents.withLock { $0.counted } }

    /// Keeps the state from being retired until `unpin()`; false when it already was.
    func pin() -> Bool {
        contents.withLock { contents in
            guard !contents.retired else { return false }
            contents.pins += 1
            return true
        }
    }

    /// Releases a `pin()`. The last one lets an eviction pass that had to skip the state run again.
    func unpin() {
        let free = contents.withLock { contents in
            contents.pins -= 1
            return contents.pins == 0
        }
        if free { meter.recheck() }
    }

    /// Retires the state unless it is pinned: it takes no more changes, and its bytes leave the
    /// meter. - Returns: whether it is retired now.
    func retire() -> Bool {
        contents.withLock { contents in
            guard !contents.retired else { return true }
            guard contents.pins == 0 else { return false }
            contents.retired = true
            contents.cache.removeAll()
            contents.summaries.removeAll()
            meter.add(-contents.counted)
            contents.counted = 0
            return true
        }
    }

    /// Brings the meter up to date with the state's bytes (on its lock). The data's estimate walks
    /// every day, so after a change it is taken again every 64th version only; the changes between
    /// add `bytesPerChange` each (a completion's id in its day's array; a new day costs more, a
    /// removal less), and a sixteenth of the budget is kept free anyway.
    private func recount(_ contents: inout Contents, data changed: Bool) {
        guard !contents.retired else { return }
        if changed {
            if contents.version & 63 == 0 {
                contents.dataBytes = contents.data.estimatedHeapBytes
            } else {
                contents.dataBytes += UserState.bytesPerChange
            }
        }
        let bytes = contents.bytes
        meter.add(bytes - contents.counted)
        contents.counted = bytes
    }

    // MARK: Reads

    /// The cached response for a read (a stale one brought up to date first), or the key to cache
    /// it under once computed.
    func cachedResponse(_ method: WireMethod, message: [UInt8], now: Date) -> (key: ResponseKey, bytes: [UInt8]?) {
        contents.withLock { contents in
            let today = contents.today(now: now)
            let key = ResponseKey(method: method, todayDayNumber: today.dayNumber, message: message)
            return (key, cached(key, in: &contents))
        }
    }

    /// The cached response under `key` (a stale one brought up to date first), if any.
    func cachedResponse(_ key: ResponseKey) -> [UInt8]? {
        contents.withLock { contents in cached(key, in: &contents) }
    }

    /// The response under `key`; a stale heatmap has its stale columns built again from the data
    /// as it is now, and is counted at its new size.
    private func cached(_ key: ResponseKey, in contents: inout Contents) -> [UInt8]? {
        let before = contents.cache.bytes
        // The index is read only for a stale answer: a fresh hit (every cached read) copies nothing.
        let bytes = contents.cache.value(for: key) { recipe, stale in
            recipe.refreshed(stale, index: contents.data.index)
        }
        if contents.cache.bytes != before { recount(&contents, data: false) }
        return bytes
    }

    /// Runs `body` with the data as it is now and today's date in the user's zone, under the
    /// user's lock and without copying the data (a write's checks): keep `body` short.
    func inspect<T: Sendable, E: Error>(now: Date, _ body: (UserData, CivilDate) throws(E) -> T) throws(E) -> T {
        try contents.withLock { contents throws(E) in
            let today = contents.today(now: now)
            return try body(contents.data, today)
        }
    }

    /// The data as it is now.
    func snapshot(now: Date) -> Snapshot {
        contents.withLock { contents in
            let today = contents.today(now: now)
            return Snapshot(data: contents.data, version: contents.version, today: today)
        }
    }

    /// Caches a response computed from the snapshot of `version`, unless a write came since; with
    /// its recipe, a change of some days' records patches it (`update(now:changing:_:)`).
    func cache(_ bytes: [UInt8], for key: ResponseKey, version: UInt64, recipe: HeatmapRecipe? = nil) {
        contents.withLock { contents in
            guard contents.version == version, !contents.retired else { return }
            let keyBytes = key.message.count + 16 + (recipe?.bytes ?? 0)
            contents.cache.insert(bytes, for: key, keyBytes: keyBytes, recipe: recipe)
            recount(&contents, data: false)
        }
    }

    /// The entries and bytes the response cache holds.
    var cacheUsage: (entries: Int, bytes: Int) {
        contents.withLock { ($0.cache.count, $0.cache.bytes) }
    }

    /// The streak summary as of `asOf` (nil: today) if one was computed since the last change (a
    /// write's answer computes it), with the version it is of; nil otherwise, and once retired
    /// (the state takes no more changes). Computes nothing.
    func sharedStreak(asOf: CivilDate?, now: Date) -> (summary: StreakSummary, version: UInt64)? {
        contents.withLock { contents in
            guard !contents.retired else { return nil }
            let day = asOf?.dayNumber ?? contents.today(now: now).dayNumber
            return contents.summaries[day].map { ($0, contents.version) }
        }
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
        let (summary, checkpoint) = snapshot.data.streakSummaryAndCheckpoint(asOf: asOf ?? snapshot.today)
        contents.withLock { contents in
            guard contents.version == snapshot.version, !contents.retired else { return }
            contents.summaries[summary.asOf.dayNumber] = summary
            // The data is still the snapshot's: the next summaries walk only the days since. (Not
            // one for a day after today: today's writes would drop it.)
            if let checkpoint, summary.asOf <= snapshot.today { contents.data.index.keepStreakCheckpoint(checkpoint) }
            recount(&contents, data: false)
        }
        return (summary, snapshot)
    }

    // MARK: This server's writes

    /// After a change of the data: today's cached heatmaps that can be patched for `change` are
    /// marked stale (their next lookup patches them), the other answers dropped (those of an
    /// earlier "today" too: nobody asks for them again); all are dropped when the change is not
    /// described (nil).
    private static func revise(_ contents: inout Contents, after change: (some DayRecordChange)?, now: Date) {
        guard let change, !contents.cache.isEmpty else {
            contents.cache.removeAll()
            return
        }
        let today = contents.today(now: now).dayNumber
        contents.cache.revise { key, recipe in key.todayDayNumber == today && recipe.note(change) }
    }

    /// Applies an acknowledged write and empties the cache.
    /// - Returns: what `body` returns, and the snapshot after the change.
    func update<T>(now: Date, _ body: (inout UserData) throws -> T) rethrows -> (T, Snapshot) {
        try update(now: now, changing: nil as ChangedRecordDays?, body)
    }

    /// Applies an acknowledged write that changed no more than `change` says (nil: not described)
    /// and empties the cache, except for the heatmaps that can be patched for it.
    /// - Returns: what `body` returns, and the snapshot after the change.
    func update<T>(
        now: Date,
        changing change: (some DayRecordChange)?,
        _ body: (inout UserData) throws -> T
    ) rethrows -> (T, Snapshot) {
        try contents.withLock { contents in
            let result = try body(&contents.data)
            contents.version &+= 1
            UserState.revise(&contents, after: change, now: now)
            contents.summaries.removeAll(keepingCapacity: true)
            recount(&contents, data: true)
            let today = contents.today(now: now)
            return (result, Snapshot(data: contents.data, version: contents.version, today: today))
        }
    }

    /// A write of this server was handed to the store: pins the state until `unpin()` (the caller
    /// holds a pin already) and notes what the write may change, so that a change read from the
    /// store meanwhile does not undo it.
    func beginOwnWrite(_ scope: WriteScope) {
        contents.withLock { contents in
            contents.pins += 1
            contents.ownWrites.begin(scope)
        }
    }

    /// The store acknowledged (or refused) a write of `beginOwnWrite`, and it was applied. The
    /// pin stays until its answer is encoded (`unpin()`).
    func finishOwnWrite(_ scope: WriteScope) {
        contents.withLock { $0.ownWrites.finish(scope) }
    }

    // MARK: Other servers' changes

    /// A read of what another server changed is about to start: returns the mark that
    /// `applyExternal` compares this server's writes with, or nil when the state is retired.
    func beginExternalRead() -> UInt64? {
        contents.withLock { contents in
            guard !contents.retired else { return nil }
            return contents.ownWrites.beginRead()
        }
    }

    /// Ends a read of `beginExternalRead` that will not be applied (it failed).
    func cancelExternalRead() {
        contents.withLock { $0.ownWrites.endRead() }
    }

    /// The ids of the habits held now (the follower reads their days).
    var habitIDs: [Int64] {
        contents.withLock { $0.data.index.habits.map(\.id) }
    }

    /// Applies rows read from the store after another server changed them (`beginExternalRead`
    /// gave `mark`). A day or the habits that a write of this server touched since the mark, or
    /// still touches, keep their in-memory state and come back in `unapplied` to be read again:
    /// the rows may predate that write. (Days read with habits that cannot be applied wait with them.)
    /// When `keepBefore` (asked under the lock, as the writes of this server ask whether the user
    /// is watched) says so, the answer has the data as it was before. `now` tells today's cached
    /// answers, which may be patched, from older ones.
    func applyExternal(
        _ rows: ExternalRows,
        mark: UInt64,
        now: Date = Date(),
        keepBefore: () -> Bool = { false }
    ) -> ExternalApplied {
        contents.withLock { contents in
            defer { contents.ownWrites.endRead() }
            guard !contents.retired else {
                return ExternalApplied(changedDays: [], unapplied: ChangedData())
            }
            let before = keepBefore() ? contents.data : nil
            let own = contents.ownWrites
            var unapplied = ChangedData()
            var changed = false
            if let profile = rows.habitsAndSettings {
                guard !own.touchedHabits(since: mark) else {
                    // The days were read with these habits: they wait for them.
                    let days = rows.days.map { ChangedData(days: $0, habitsOrSettings: true) } ?? .all
                    return ExternalApplied(changedDays: [], unapplied: days)
                }
                changed = contents.data.replace(profile) || changed
            }
            var completed: [Int: Set<Int64>] = [:]
            var skipped: [Int: Set<Int64>] = [:]
            for completion in rows.dayRows.completions {
                completed[completion.date.dayNumber, default: []].insert(completion.habitID)
            }
            for skip in rows.dayRows.skips { skipped[skip.date.dayNumber, default: []].insert(skip.habitID) }
            let days: [Int] =
                rows.days?.map(\.dayNumber)
                ?? Set(contents.data.index.dayNumbersWithRecords).union(completed.keys).union(skipped.keys).sorted()
            var changedDays: [CivilDate] = []
            var unappliedDays: [CivilDate] = []
            for number in days {
                guard let date = try? CivilDate(dayNumber: number) else { continue }
                if own.touchedDay(number, since: mark) {
                    unappliedDays.append(date)
                    continue
                }
                if contents.data.index.replaceDay(
                    date,
                    completed: completed[number] ?? [],
                    skipped: skipped[number] ?? []
                ) {
                    changedDays.append(date)
                }
            }
            unapplied.days = unappliedDays
            guard changed || !changedDays.isEmpty else {
                return ExternalApplied(changedDays: [], unapplied: unapplied)
            }
            contents.version &+= 1
            UserState.revise(&contents, after: changed ? nil : ChangedRecordDays(days: changedDays), now: now)
            contents.summaries.removeAll(keepingCapacity: true)
            recount(&contents, data: true)
            return ExternalApplied(changedDays: changedDays, unapplied: unapplied, before: before)
        }
    }
}
