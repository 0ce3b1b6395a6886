import Synchronization

/// Work a store does in the background, which no request waits for: when it fails the store
/// carries on, but an operator should hear of it, since a failure that lasts has a cost (a
/// change log that grows, servers that learn of each other's writes only from a timer).
public enum StoreUpkeep: String, Sendable, Hashable, CaseIterable {
    /// Keeping a connection that listens for the other servers' notifications (PostgreSQL).
    case listenForChanges = "listening for the other servers' changes"
    /// Deleting the change log's rows past their retention (PostgreSQL), every minute.
    case pruneChangeLog = "pruning the change log"
    /// Reading the other servers' changes from the change log (PostgreSQL).
    case readChangeLog = "reading the change log"
    /// Notifying the other servers of this server's commits (PostgreSQL).
    case announceCommits = "notifying the other servers of commits"
    /// Copying the write-ahead log into the database file (SQLite), after every few thousand
    /// pages written. While it fails the log grows instead, and so does the time a restart takes.
    case checkpointLog = "copying the write-ahead log into the database"

    /// Its name for programs (GetServerInfo's `job`), which does not change with the wording of
    /// `rawValue`: `listen_for_changes`, `read_change_log`, `prune_change_log`, `announce_commits`,
    /// `checkpoint_log`.
    public var job: String {
        switch self {
        case .listenForChanges: "listen_for_changes"
        case .pruneChangeLog: "prune_change_log"
        case .readChangeLog: "read_change_log"
        case .announceCommits: "announce_commits"
        case .checkpointLog: "checkpoint_log"
        }
    }
}

/// A change in how a store's upkeep goes: it started failing (`failure`), or works again.
public struct StoreUpkeepReport: Sendable {
    /// What failed or works again.
    public let upkeep: StoreUpkeep
    /// Why it failed; nil when it works again after failing.
    public let failure: StorageError?

    public init(upkeep: StoreUpkeep, failure: StorageError?) {
        self.upkeep = upkeep
        self.failure = failure
    }
}

/// Reports a store's upkeep to its handler once per change: the first failure of a run of
/// failures, and the first success after them, so that a failure repeated every second (a
/// database that stays down) is one line in the server's log, not thousands. What happens before
/// a handler is set is not remembered: a failure that goes on is reported at its first attempt
/// after that.
final class UpkeepReporter: Sendable {
    /// The handler, and the upkeep it was told is failing.
    private let state = Mutex<(handler: (@Sendable (StoreUpkeepReport) -> Void)?, failing: Set<StoreUpkeep>)>(
        (nil, [])
    )

    init() {}

    /// Sets where reports go (once, before the store serves).
    func setHandler(_ handler: @escaping @Sendable (StoreUpkeepReport) -> Void) {
        state.withLock { $0.handler = handler }
    }

    /// `upkeep` failed with `error`: reported unless it was failing already.
    func failed(_ upkeep: StoreUpkeep, _ error: StorageError) {
        let handler = state.withLock { state in
            state.handler != nil && state.failing.insert(upkeep).inserted ? state.handler : nil
        }
        handler?(StoreUpkeepReport(upkeep: upkeep, failure: error))
    }

    /// `upkeep` worked: reported when it was failing.
    func succeeded(_ upkeep: StoreUpkeep) {
        let handler = state.withLock { state in state.failing.remove(upkeep) != nil ? state.handler : nil }
        handler?(StoreUpkeepReport(upkeep: upkeep, failure: nil))
    }
}
