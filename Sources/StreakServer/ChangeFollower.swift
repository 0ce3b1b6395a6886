import Dispatch
import Foundation
import Logging
import StreakCore
import StreakStorage
import Synchronization

/// Applies the changes that other servers sharing the store commit, to the users this server
/// holds: for each user, it reads only the rows a notice names (`StreakStore.dayRows`, and
/// `habitsAndSettings` when habits or settings changed) and applies them in memory.
///
/// - Off the acknowledgement queue: notices are merged here and read on a queue of their own
///   (through a connection of their own), so this server's own writes are acknowledged at the
///   same pace however fast the others write.
/// - Merged: while a user's read is pending or running, further notices for that user join one
///   pending change (the union of their days), read once after it.
/// - Bounded: a user whose oldest unread notice is older than `maximumLag` is dropped from
///   memory (`UserRegistry.drop`) and loaded again, whole, on its next request; one that cannot
///   be dropped (a Watch is open, or a write of its own is in flight) is read whole instead.
/// - Notices for users not in memory are ignored: their next load reads the store.
final class ChangeFollower: Sendable {
    private struct Pending {
        /// What is still to read.
        var change: ChangedData
        /// When the oldest notice in `change` arrived (the meter's nanoseconds).
        var since: UInt64
        /// Whether it waits in `order`.
        var queued = false
        /// Whether its read runs now.
        var reading = false
    }

    private struct Contents {
        var pending: [UserID: Pending] = [:]
        var order: [UserID] = []
        var next = 0
        var draining = false
        var applied: UInt64 = 0
        var reads: UInt64 = 0
    }

    private let contents = Mutex(Contents())
    private let store: any StreakStore
    private let users: UserRegistry
    private let logger: Logger
    private let now: @Sendable () -> Date
    private let queue = DispatchQueue(label: "streakd.service.follow", qos: .userInitiated)
    /// How long a user's notices may wait before it is dropped instead of read.
    let maximumLag: Duration
    private let notify = Mutex<(@Sendable (UserState, [CivilDate]) -> Void)?>(nil)

    init(
        store: any StreakStore,
        users: UserRegistry,
        logger: Logger,
        maximumLag: Duration = .seconds(2),
        now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.users = users
        self.logger = logger
        self.maximumLag = maximumLag
        self.now = now
    }

    /// Sets what pushes the days that changed to the user's watchers.
    func onChangedDays(_ action: @escaping @Sendable (UserState, [CivilDate]) -> Void) {
        notify.withLock { $0 = action }
    }

    /// Reads committed by other servers and applied so far, and the reads that took them.
    var counts: (notices: UInt64, reads: UInt64) {
        contents.withLock { ($0.applied, $0.reads) }
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
            contents.applied += 1
            if var pending = contents.pending[id] {
                if pending.change.isEmpty { pending.since = Self.clock() }
                pending.change = pending.change.merged(with: change)
                if !pending.queued && !pending.reading {
                    pending.queued = true
                    contents.order.append(id)
                }
                contents.pending[id] = pending
            } else {
                contents.pending[id] = Pending(change: change, since: Self.clock(), queued: true)
                contents.order.append(id)
            }
            guard !contents.draining else { return false }
            contents.draining = true
            return true
        }
        if start { queue.async { self.drain() } }
    }

    /// On `queue`: reads and applies the queued users in the order their first notice came.
    private func drain() {
        while let (id, change, since) = next() {
            let unapplied = follow(id, change, since: since)
            finish(id, unapplied: unapplied, since: since)
        }
    }

    private func next() -> (UserID, ChangedData, UInt64)? {
        contents.withLock { contents in
            guard contents.next < contents.order.count else {
                contents.order.removeAll(keepingCapacity: true)
                contents.next = 0
                contents.draining = false
                return nil
            }
            let id = contents.order[contents.next]
            contents.next += 1
            if contents.next > 4096 && contents.next * 2 > contents.order.count {
                contents.order.removeFirst(contents.next)
                contents.next = 0
            }
            guard var pending = contents.pending[id] else { return (id, ChangedData(), 0) }
            let change = pending.change
            pending.change = ChangedData()
            pending.queued = false
            pending.reading = true
            contents.pending[id] = pending
            contents.reads += 1
            return (id, change, pending.since)
        }
    }

    /// Reads and applies one user's change. - Returns: what is to be read again.
    private func follow(_ id: UserID, _ change: ChangedData, since: UInt64) -> ChangedData {
        guard !change.isEmpty, let state = users.loadedState(for: id) else { return ChangedData() }
        var change = change
        if Self.clock() &- since > UInt64(maximumLag.nanoseconds) {
            // Too far behind: cheaper to load it whole when it is next used.
            if users.drop(id) {
                logger.debug("dropped a user whose changes fell behind", metadata: ["user": "\(id)"])
                return ChangedData()
            }
            change = .all
        }
        guard let mark = state.beginExternalRead() else { return ChangedData() }
        let rows: ExternalRows
        do {
            let profile = change.everything || change.habitsOrSettings ? try store.habitsAndSettings(of: id) : nil
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
                metadata: ["user": "\(id)", "error": "\(error)"]
            )
            return users.drop(id) ? ChangedData() : change
        }
        let applied = state.applyExternal(rows, mark: mark, now: now())
        if !applied.changedDays.isEmpty, let notify = notify.withLock({ $0 }) { notify(state, applied.changedDays) }
        return applied.unapplied
    }

    private func finish(_ id: UserID, unapplied: ChangedData, since: UInt64) {
        let retry = contents.withLock { contents -> Bool in
            guard var pending = contents.pending[id] else { return false }
            pending.reading = false
            if !unapplied.isEmpty {
                pending.since = pending.change.isEmpty ? since : min(since, pending.since)
                pending.change = pending.change.merged(with: unapplied)
            }
            guard !pending.change.isEmpty else {
                contents.pending[id] = nil
                return false
            }
            contents.pending[id] = pending
            guard unapplied.isEmpty else { return true }
            pending.queued = true
            contents.pending[id] = pending
            contents.order.append(id)
            return false
        }
        // A write of this server touches what was read: read again once it is likely through.
        if retry {
            queue.asyncAfter(deadline: .now() + .milliseconds(1)) { self.requeue(id) }
        }
    }

    private func requeue(_ id: UserID) {
        let start = contents.withLock { contents -> Bool in
            guard var pending = contents.pending[id], !pending.queued, !pending.reading else { return false }
            pending.queued = true
            contents.pending[id] = pending
            contents.order.append(id)
            guard !contents.draining else { return false }
            contents.draining = true
            return true
        }
        if start { drain() }
    }

    private static func clock() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
}
