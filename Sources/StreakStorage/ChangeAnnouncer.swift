import StreakCore
import StreakPOSIX

/// Sends the notifications that wake the other servers after this server's commits
/// (`ChangeLog.notify`), on a thread and a connection of its own, so that the writer only hands
/// over the payloads of a batch it committed and goes on.
///
/// The notices of the batches committed while a notification is in flight go together in the
/// next one, merged per user (the days of all of them: what a server that does not read the log,
/// an earlier version, needs; one that reads it only needs to be woken). A notification that
/// cannot be sent (the connection is lost) is dropped: the others read the change log on a timer
/// too, and find the changes within a second. Its first failure, and the first success after it, go
/// to `upkeep` (`StoreUpkeep.announceCommits`).
///
/// `@unchecked Sendable`: `queue` is guarded by the worker's lock, and `connection` is used on the
/// worker's thread only.
final class ChangeAnnouncer: @unchecked Sendable {
    private let url: String
    private let timeout: Duration
    private let upkeep: UpkeepReporter
    private let worker = WorkerThread<[Announced]>(name: "streakd-storage-announce")
    /// Notices not yet sent; guarded by the worker's lock.
    private var queue: [Announced] = []

    /// A notice and its payload (made once, for the change log's row).
    struct Announced: Equatable {
        let notice: ChangeNotice
        let payload: String

        init(_ notice: ChangeNotice, payload: String? = nil) {
            self.notice = notice
            self.payload = payload ?? notice.payload
        }
    }
    /// Only used on the worker's thread.
    private var connection: PostgresConnection?
    /// At most this many payloads in one notification statement; more are sent as several.
    static let payloadsPerStatement = 1000

    init(
        url: String,
        timeout: Duration = PostgresConnection.defaultTimeout,
        upkeep: UpkeepReporter = UpkeepReporter()
    ) {
        self.url = url
        self.timeout = timeout
        self.upkeep = upkeep
        worker.start(
            take: { [unowned self] _ in
                guard !queue.isEmpty else { return nil }
                defer { queue.removeAll(keepingCapacity: true) }
                return queue
            },
            run: { [unowned self] announced in send(Self.merged(announced).map(\.payload)) }
        )
    }

    /// Queues the notices of a committed batch (returns at once).
    func announce(_ notices: [Announced]) {
        worker.update { stopping in
            guard !stopping else { return }
            queue.append(contentsOf: notices)
        }
    }

    /// One notice per user, in the order of their first, with the union of what changed (a
    /// payload is made again only for a user with several).
    static func merged(_ announced: [Announced]) -> [Announced] {
        var index: [UserID: Int] = [:]
        var merged: [Announced] = []
        merged.reserveCapacity(announced.count)
        for entry in announced {
            if let known = index[entry.notice.user] {
                let first = merged[known].notice
                merged[known] = Announced(
                    ChangeNotice(
                        origin: first.origin,
                        user: first.user,
                        change: first.change.merged(with: entry.notice.change)
                    )
                )
            } else {
                index[entry.notice.user] = merged.count
                merged.append(entry)
            }
        }
        return merged
    }

    /// Sends what is queued, then stops the thread and closes the connection.
    func stop() {
        worker.stop()
        connection?.close()
        connection = nil
    }

    /// The shortest time between the starts of two notifications: the batches committed
    /// meanwhile share the next one (fewer, larger notifying transactions under a storm).
    static let minimumGap: Duration = .milliseconds(1)

    private func send(_ payloads: [String]) {
        let started = ContinuousClock.now
        defer {
            NamedThread.sleep(for: started + Self.minimumGap - ContinuousClock.now)
        }
        do throws(StorageError) {
            if connection == nil { connection = try PostgresConnection(url: url, timeout: timeout) }
            guard let connection else { return }
            for start in stride(from: 0, to: payloads.count, by: Self.payloadsPerStatement) {
                let slice = Array(payloads[start..<min(start + Self.payloadsPerStatement, payloads.count)])
                let statement = ChangeLog.notify(slice)
                try connection.query(statement.sql, statement.arguments)
            }
            upkeep.succeeded(.announceCommits)
        } catch {
            // Lost: the others' timers read the log. A connection that failed to open is tried
            // again with the next batch.
            upkeep.failed(.announceCommits, error)
        }
    }
}
