import Dispatch
import StreakStorage
import Synchronization

/// The in-memory state of the users in use, loaded from the store on first use and kept under a
/// memory budget by evicting the least recently used (`MemoryMeter`).
///
/// Eviction is invisible to clients: an evicted user is loaded again, from the store, on its
/// next request, and the store has every acknowledged write. What may not be evicted: a user with
/// an open Watch (`isWatched`), whose events need the state, and one with a write between its
/// validation and its answer (`UserState.pin`).
final class UserRegistry: Sendable {
    /// A load in progress: the changes of other servers reported while it reads, to be read
    /// again once the state is registered (the load may have read the rows before they changed).
    private final class LoadTicket: Sendable {
        let changes = Mutex(ChangedData())
    }

    private struct Contents {
        var states: [UserID: UserState] = [:]
        var loading: [UserID: [LoadTicket]] = [:]
        var loads: UInt64 = 0
        var evicted: UInt64 = 0
        var dropped: UInt64 = 0
    }

    private let contents = Mutex(Contents())
    private let store: any StreakStore
    private let cacheLimits: ResponseCacheLimits
    /// The bytes of every state held, and the budget.
    let meter: MemoryMeter
    private let evictionQueue = DispatchQueue(label: "streakd.service.evict", qos: .utility)
    private let evictionScheduled = Atomic<Bool>(false)
    private let hooks = Mutex<Hooks>(Hooks())

    private struct Hooks {
        var isWatched: (@Sendable (UserID) -> Bool)?
        var changedWhileLoading: (@Sendable (UserID, ChangedData) -> Void)?
    }

    /// - Parameter budget: the bytes the states may take (nil: no bound).
    init(store: any StreakStore, cacheLimits: ResponseCacheLimits, budget: Int? = nil) {
        self.store = store
        self.cacheLimits = cacheLimits
        meter = MemoryMeter(budget: budget)
        meter.onOverBudget { [weak self] in self?.scheduleEviction() }
    }

    /// Sets what tells whether a user has an open Watch (such a user is never evicted), and what
    /// runs when other servers changed a user while it was being loaded.
    func setHooks(
        isWatched: @escaping @Sendable (UserID) -> Bool,
        changedWhileLoading: @escaping @Sendable (UserID, ChangedData) -> Void
    ) {
        hooks.withLock {
            $0.isWatched = isWatched
            $0.changedWhileLoading = changedWhileLoading
        }
    }

    private func isWatched(_ id: UserID) -> Bool {
        hooks.withLock { $0.isWatched }?(id) ?? false
    }

    /// The user's state, loading it from the store (blocking) when it is not in memory.
    /// - Parameter pin: pin the state (`UserState.pin`) before anyone can evict it.
    func state(for id: UserID, pin: Bool = false) throws -> UserState {
        let ticket = LoadTicket()
        let registered: UserState? = contents.withLock { contents in
            if let state = contents.states[id] {
                if pin { _ = state.pin() }
                return state
            }
            contents.loading[id, default: []].append(ticket)
            return nil
        }
        if let registered {
            registered.touch()
            return registered
        }
        let data: UserData
        do {
            data = try self.data(of: id)
        } catch {
            contents.withLock { Self.removeTicket(ticket, of: id, from: &$0) }
            throw error
        }
        let loaded = UserState(id: id, data: data, cacheLimits: cacheLimits, meter: meter)
        let state = contents.withLock { contents in
            Self.removeTicket(ticket, of: id, from: &contents)
            if let existing = contents.states[id] {
                if pin { _ = existing.pin() }
                return existing
            }
            if pin { _ = loaded.pin() }
            contents.states[id] = loaded
            contents.loads += 1
            return loaded
        }
        if state !== loaded { _ = loaded.retire() }
        state.touch()
        // The load counted its bytes before it was registered: a pass that ran in between missed it.
        meter.recheck()
        let missed = ticket.changes.withLock { $0 }
        if !missed.isEmpty, let changed = hooks.withLock({ $0.changedWhileLoading }) { changed(id, missed) }
        return state
    }

    private static func removeTicket(_ ticket: LoadTicket, of id: UserID, from contents: inout Contents) {
        contents.loading[id]?.removeAll { $0 === ticket }
        if contents.loading[id]?.isEmpty == true { contents.loading[id] = nil }
    }

    /// The user's state if it is in memory.
    func loadedState(for id: UserID) -> UserState? {
        contents.withLock { $0.states[id] }
    }

    /// Where a change another server made goes: the state in memory, or nil when there is none
    /// (then nothing needs it; a load in progress notes it and reads it again when done).
    func route(_ id: UserID, _ change: ChangedData) -> UserState? {
        contents.withLock { contents in
            if let state = contents.states[id] { return state }
            for ticket in contents.loading[id] ?? [] { ticket.changes.withLock { $0 = $0.merged(with: change) } }
            return nil
        }
    }

    /// Every state in memory.
    func loadedStates() -> [UserState] {
        contents.withLock { Array($0.states.values) }
    }

    /// Loads the user unless it is in memory (for a Watch just opened: its events need it).
    /// - Parameter failed: called on `queue` with the error when the store could not load it.
    func ensureLoaded(_ id: UserID, on queue: DispatchQueue, failed: @escaping @Sendable (any Error) -> Void) {
        guard loadedState(for: id) == nil else { return }
        queue.async {
            do { _ = try self.state(for: id) } catch { failed(error) }
        }
    }

    /// Forgets the user's state unless it is pinned or watched (its changes fell too far behind):
    /// it is loaded again on its next request. - Returns: whether it was dropped.
    @discardableResult
    func drop(_ id: UserID) -> Bool {
        contents.withLock { contents in
            guard let state = contents.states[id], !isWatched(id), state.retire() else { return false }
            contents.states[id] = nil
            contents.dropped += 1
            return true
        }
    }

    /// What GetServerInfo reports.
    struct Usage: Sendable {
        var held: Int
        var loads: UInt64
        var evicted: UInt64
        var dropped: UInt64
        var bytes: Int
        var budget: Int?
    }

    var usage: Usage {
        let counts = contents.withLock { ($0.states.count, $0.loads, $0.evicted, $0.dropped) }
        return Usage(
            held: counts.0,
            loads: counts.1,
            evicted: counts.2,
            dropped: counts.3,
            bytes: meter.bytes,
            budget: meter.budget
        )
    }

    // MARK: Eviction

    /// Runs an eviction pass on the eviction queue unless one is pending.
    private func scheduleEviction() {
        guard !evictionScheduled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        evictionQueue.async { [self] in
            evictionScheduled.store(false, ordering: .releasing)
            evict()
        }
    }

    /// Evicts the least recently used states that nothing pins until the bytes are a sixteenth
    /// under the budget (so that one more load does not start another pass at once).
    func evict() {
        guard let budget = meter.budget, meter.bytes > budget else { return }
        let target = budget - budget / 16
        let candidates = contents.withLock { Array($0.states.values) }
            .map { ($0, $0.lastUsed) }
            .sorted { $0.1 < $1.1 }
        for (state, _) in candidates {
            guard meter.bytes > target else { break }
            contents.withLock { contents in
                // Checked under the lock that `state(for:)` and `ensureLoaded` register under:
                // a Watch opened before this check has its user loaded again after it.
                guard contents.states[state.id] === state, !isWatched(state.id), state.retire() else { return }
                contents.states[state.id] = nil
                contents.evicted += 1
            }
        }
    }

    /// The user's data as the store has it now (blocking).
    func data(of id: UserID) throws -> UserData {
        UserData(try store.snapshot(of: id))
    }
}
