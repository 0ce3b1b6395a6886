import StreakStorage
import Synchronization

/// The in-memory state of every user seen since the start, loaded from the store on first use.
final class UserRegistry: Sendable {
    private let states = Mutex<[UserID: UserState]>([:])
    private let store: any StreakStore
    private let cacheLimits: ResponseCacheLimits

    init(store: any StreakStore, cacheLimits: ResponseCacheLimits) {
        self.store = store
        self.cacheLimits = cacheLimits
    }

    /// The user's state, loading it from the store (blocking) when it is not in memory yet.
    func state(for id: UserID) throws -> UserState {
        if let state = states.withLock({ $0[id] }) { return state }
        // Loaded outside the lock so other users are not held up. Every write goes through a
        // loaded state, so a concurrent loser of this race has nothing newer than the winner.
        let loaded = UserState(id: id, data: try data(of: id), cacheLimits: cacheLimits)
        return states.withLock { states in
            if let existing = states[id] { return existing }
            states[id] = loaded
            return loaded
        }
    }

    /// The user's state if it is in memory.
    func loadedState(for id: UserID) -> UserState? {
        states.withLock { $0[id] }
    }

    /// Every state in memory.
    func loadedStates() -> [UserState] {
        states.withLock { Array($0.values) }
    }

    /// The user's data as the store has it now (blocking).
    func data(of id: UserID) throws -> UserData {
        try UserData(
            habits: store.habits(of: id),
            completions: store.completions(of: id),
            skips: store.skips(of: id),
            restPeriods: store.restPeriods(of: id),
            settings: store.settings(of: id)
        )
    }
}
