import Dispatch
import FoundationEssentials
import Logging
import StreakCore
import StreakStorage
import Synchronization

/// Applies the changes that other servers sharing the store commit, to the users this server
/// holds: for each user, it reads only the rows a notice names (the days of its habits,
/// `StreakStore.habitDays`, for every user of a round at once; `habitsAndSettings` and those
/// days when habits or settings changed) and applies them in memory.
///
/// - Off the thread that acknowledges this server's writes: notices are merged here and read on a queue of their own
///   (through a connection of their own), so this server's own writes are acknowledged at the
///   same pace however fast the others write.
/// - Merged: while a user's read is pending or running, further notices for that user join one
///   pending change (the union of their days), read once after it.
/// - Bounded: a user whose oldest unread notice is older than `maximumLag` is dropped from
///   memory (`UserRegistry.drop`) and loaded again, whole, on its next request; one that cannot
///   be dropped (a Watch is open, or a write of its own is in flight) is read whole instead.
/// - Notices for users not in memory are ignored: their next load reads the store.
final class ChangeFollower: Sendable {
    /// A user with notices to read.
    ///
    /// ```
    /// queued ─round─▶ reading ─applied; more came meanwhile─▶ queued
    ///   ▲                │ └──applied; nothing new─────────▶ (removed)
    ///   │                └────something left unapplied────▶ retrying
    ///   └────────────────── 1 ms later, or the next notice ──────┘
    /// ```
    private struct Pending {
        enum Phase {
            /// Waits in `order` for a round.
            case queued
            /// Its read runs now; notices that arrive meanwhile gather in `change`.
            case reading
            /// Its read left days unapplied (a write of this server's own to them was in flight,
            /// or the read failed for a user that could not be dropped): queued again a moment
            /// later (`requeue`), or at once by the next notice.
            case retrying
        }

        /// What is still to read.
        var change: ChangedData
        /// When the oldest notice in `change` arrived (the meter's nanoseconds).
        var since: UInt64
        var phase: Phase
    }

    private struct Contents {
        var pending: [UserID: Pending] = [:]
        var order: [UserID] = []
        var next = 0
        var draining = false
        var notices: UInt64 = 0
        var reads: UInt64 = 0
    }

    private let contents = Mutex(Contents())
    private let store: any StreakStore
    private let users: UserRegistry
    private let logger: Logger
    private let queue = DispatchQueue(label: "streakd.service.follow", qos: .userInitiated)
    /// How long a user's notices may wait before it is dropped instead of read.
    let maximumLag: Duration
    /// (In a struct: a bare function type in a `Mutex` is re-wrapped in a thunk at every access,
    /// and the chain of thunks grows without end.)
    private struct Notify {
        let isWatched: @Sendable (UserID) -> Bool
        let now: @Sendable () -> Date
        let action: @Sendable (UserState, [CivilDate]) -> Void
        let settingsChanged: @Sendable (UserState, UserSettings, UserSettings) -> Void
    }
    private let notify = Mutex<Notify?>(nil)

    init(
        store: any StreakStore,
        users: UserRegistry,
        logger: Logger,
        maximumLag: Duration = .seconds(2)
    ) {
        self.store = store
        self.users = users
        self.logger = logger
        self.maximumLag = maximumLag
    }

    /// Sets what pushes the days that changed to the user's watchers: `action`. For a watched user
    /// (`isWatched`) a change of habits, schedules or rest periods also sends every day whose
    /// record it changed (`ChangedDays.byHabitsOrRestPeriods`, on the user's today at `now`),
    /// as the server that made the change sends them to its own watchers; a change of its settings
    /// goes to `settingsChanged` (before, after).
    func onChangedDays(
        isWatched: @escaping @Sendable (UserID) -> Bool,
        now: @escaping @Sendable () -> Date,
        action: @escaping @Sendable (UserState, [CivilDate]) -> Void,
        settingsChanged: @escaping @Sendable (UserState, UserSettings, UserSettings) -> Void
    ) {
        notify.withLock {
            $0 = Notify(isWatched: isWatched, now: now, action: action, settingsChanged: settingsChanged)
        }
    }

    /// The notices taken for users held here, and the user reads they took (merged notices share one).
    var counts: (notices: UInt64, reads: UInt64) {
        contents.withLock { ($0.notices, $0.reads) }
    }

    /// Takes a change another server committed (on the store's notice queue; returns at once).
    func receive(_ change: ExternalChange) {
        switch change {
        case .user(let id, let parts):
            guard users.route(id, parts) != nil else { return }
            enqueue(id, parts)
        case .everyone:
            // Changes may have been missed: every user is dropped, or read whole when it cannot be.
            for state in users.loadedStates() where !users.drop(state.id) {
                enqueue(state.id, .all)
            }
        }
    }

    /// Queues a read of `change` for a user in memory (also for changes missed while it loaded).
    func enqueue(_ id: UserID, _ change: ChangedData) {
        let start = contents.withLock { contents -> Bool in
            contents.notices += 1
            if var pending = contents.pending[id] {
                if pending.change.isEmpty { pending.since = Self.clock() }
                pending.change = pending.change.merged(with: change)
                if pending.phase == .retrying {
                    pending.phase = .queued
                    contents.order.append(id)
                }
                contents.pending[id] = pending
            } else {
                contents.pending[id] = Pending(change: change, since: Self.clock(), phase: .queued)
                contents.order.append(id)
            }
            guard !contents.draining else { return false }
            contents.draining = true
            return true
        }
        if start { queue.async { self.drain() } }
    }

    /// On `queue`: reads and applies the queued users in rounds, in the order their first notice
    /// came: the days of every user of a round in one statement (`StreakStore.habitDays`); a
    /// change of habits or settings, or of anything, with reads of that user alone. Rounds start
    /// at most every `roundInterval`, so that a storm of notices is merged into fewer reads.
    private func drain() {
        let started = Self.clock()
        let round = nextRound()
        guard !round.isEmpty else { return }
        var batch: [(state: UserState, id: UserID, change: ChangedData, since: UInt64, mark: UInt64)] = []
        for (id, change, since) in round {
            guard !change.isEmpty, let state = users.loadedState(for: id) else {
                finish(id, unapplied: ChangedData(), since: since)
                continue
            }
            var change = change
            if Self.clock() &- since > UInt64(maximumLag.nanoseconds) {
                // Too far behind: cheaper to load it whole when it is next used.
                if users.drop(id) {
                    logger.debug("dropped a user whose changes fell behind", metadata: ["user": "\(id)"])
                    finish(id, unapplied: ChangedData(), since: since)
                    continue
                }
                change = .all
            }
            if change.everything || change.habitsOrSettings {
                finish(id, unapplied: followAlone(state, change), since: since)
            } else if let mark = state.beginExternalRead() {
                batch.append((state, id, change, since, mark))
            } else {
                finish(id, unapplied: ChangedData(), since: since)
            }
        }
        if !batch.isEmpty { followDays(batch) }
        let elapsed = Self.clock() &- started
        let pause = elapsed < Self.roundInterval ? Self.roundInterval - elapsed : 0
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(pause))) { self.drain() }
    }

    /// The users of the next round (at most `roundSize`); an empty round ends the drain.
    private func nextRound() -> [(UserID, ChangedData, UInt64)] {
        contents.withLock { contents in
            var round: [(UserID, ChangedData, UInt64)] = []
            while contents.next < contents.order.count && round.count < Self.roundSize {
                let id = contents.order[contents.next]
                contents.next += 1
                guard var pending = contents.pending[id], pending.phase == .queued else { continue }
                round.append((id, pending.change, pending.since))
                pending.change = ChangedData()
                pending.phase = .reading
                contents.pending[id] = pending
                contents.reads += 1
            }
            if contents.next == contents.order.count {
                contents.order.removeAll(keepingCapacity: true)
                contents.next = 0
            }
            if round.isEmpty { contents.draining = false }
            return round
        }
    }

    /// Reads the changed days of every user of `batch` in one statement and applies them.
    private func followDays(_ batch: [(state: UserState, id: UserID, change: ChangedData, since: UInt64, mark: UInt64)])
    {
        var keys: [HabitDay] = []
        for item in batch {
            let habits = item.state.habitIDs
            for date in item.change.days {
                for habit in habits { keys.append(HabitDay(user: item.id, habitID: habit, date: date)) }
            }
        }
        let found: (done: [HabitDay], skipped: [HabitDay])
        do {
            found = try store.habitDays(keys)
        } catch {
            logger.warning(
                "cannot read what other servers changed; dropping those users",
                metadata: StorageError.logMetadata(of: error)
            )
            for item in batch {
                item.state.cancelExternalRead()
                finish(item.id, unapplied: users.drop(item.id) ? ChangedData() : item.change, since: item.since)
            }
            return
        }
        let done = Dictionary(grouping: found.done, by: \.user)
        let skipped = Dictionary(grouping: found.skipped, by: \.user)
        for item in batch {
            let rows = DayRows(
                completions: (done[item.id] ?? []).map { Completion(habitID: $0.habitID, date: $0.date) },
                skips: (skipped[item.id] ?? []).map { Skip(habitID: $0.habitID, date: $0.date) }
            )
            let applied = item.state.applyExternal(
                ExternalRows(days: item.change.days, dayRows: rows, habitsAndSettings: nil),
                mark: item.mark
            )
            if !applied.changedDays.isEmpty, let notify = notify.withLock({ $0 }) {
                notify.action(item.state, applied.changedDays)
            }
            finish(item.id, unapplied: applied.unapplied, since: item.since)
        }
    }

    /// Reads and applies a change of a user's habits or settings (with its days), or of anything.
    /// - Returns: what is to be read again.
    private func followAlone(_ state: UserState, _ change: ChangedData) -> ChangedData {
        let id = state.id
        guard let mark = state.beginExternalRead() else { return ChangedData() }
        let rows: ExternalRows
        do {
            let profile = try store.habitsAndSettings(of: id)
            let dayRows = change.everything ? try store.allDayRows(of: id) : try store.dayRows(of: id, on: change.days)
            rows = ExternalRows(
                days: change.everything ? nil : change.days,
                dayRows: dayRows,
                habitsAndSettings: profile
            )
        } catch {
            state.cancelExternalRead()
            logger.warning(
                "cannot read what another server changed; dropping the user",
                metadata: StorageError.logMetadata(of: error).merging(["user": "\(id)"]) { $1 }
            )
            return users.drop(id) ? ChangedData() : change
        }
        let watch = notify.withLock { $0 }
        let applied = state.applyExternal(rows, mark: mark) { watch?.isWatched(id) ?? false }
        var days = applied.changedDays
        if let before = applied.before, let watch {
            let after = state.snapshot(now: watch.now())
            let byHabits = ChangedDays.byHabitsOrRestPeriods(
                UserState.Snapshot(data: before, version: 0, today: .min),
                after
            )
            if !byHabits.isEmpty { days = Set(days + byHabits).sorted() }
            if !days.isEmpty { watch.action(state, days) }
            watch.settingsChanged(state, before.settings, after.data.settings)
        } else if !days.isEmpty, let watch {
            watch.action(state, days)
        }
        return applied.unapplied
    }

    private func finish(_ id: UserID, unapplied: ChangedData, since: UInt64) {
        let retry = contents.withLock { contents -> Bool in
            guard var pending = contents.pending[id] else { return false }
            if !unapplied.isEmpty {
                pending.since = pending.change.isEmpty ? since : min(since, pending.since)
                pending.change = pending.change.merged(with: unapplied)
            }
            guard !pending.change.isEmpty else {
                contents.pending[id] = nil
                return false
            }
            pending.phase = unapplied.isEmpty ? .queued : .retrying
            contents.pending[id] = pending
            if pending.phase == .queued { contents.order.append(id) }
            return pending.phase == .retrying
        }
        // A write of this server touches what was read: read again once it is likely through.
        if retry {
            queue.asyncAfter(deadline: .now() + .milliseconds(1)) { self.requeue(id) }
        }
    }

    private func requeue(_ id: UserID) {
        let start = contents.withLock { contents -> Bool in
            guard var pending = contents.pending[id], pending.phase == .retrying else { return false }
            pending.phase = .queued
            contents.pending[id] = pending
            contents.order.append(id)
            guard !contents.draining else { return false }
            contents.draining = true
            return true
        }
        if start { drain() }
    }

    /// The most users read in one round.
    static let roundSize = 256
    /// The shortest time between the starts of two rounds (nanoseconds).
    static let roundInterval: UInt64 = 1_000_000

    private static func clock() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
}
