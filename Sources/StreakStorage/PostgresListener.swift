import Dispatch
import FoundationEssentials

/// Follows the changes of the other servers sharing a PostgreSQL database, on a connection of its
/// own watched by a Dispatch read source, and reports them as `ExternalChange`s on `queue`.
///
/// It listens on `ChangeNotice.channel`; a notification from a server that logs its changes
/// (`ChangeNotice.logsChanges`) wakes it to read the change log from where it last was
/// (`ChangeLog.Cursor`), and so does a timer every `pollInterval`, so that a change whose
/// notification never came is still reported. A notification from an earlier server, which does
/// not log, carries its notice and is reported as it is. The listener also prunes the log
/// (`ChangeLog.retention`) every `pruneInterval`.
///
/// When the connection breaks, or cannot be opened at the start, changes may be missed: it
/// reconnects (every second until it can) and then reports `.everyone`, so that no server keeps
/// serving data it did not see change; likewise when the log could not be read for longer than a
/// fraction of its retention. Failures to listen, read and prune go to `upkeep`.
///
/// `@unchecked Sendable`: apart from its constants, its state (the connections, the source, the
/// cursor and the times) is touched on `listening`, its serial queue, only.
final class PostgresListener: @unchecked Sendable {
    private let url: String
    private let timeout: Duration
    private let origin: String
    private let queue: DispatchQueue
    private let handler: @Sendable (ExternalChange) -> Void
    private let upkeep: UpkeepReporter
    /// The listener's own serial queue: the connection and the source are only touched on it.
    private let listening = DispatchQueue(label: "streakd.storage.listen")
    private var connection: PostgresConnection?
    /// The connection of a cancelled source, until its cancel handler closes it.
    private var retiring: PostgresConnection?
    private var source: (any DispatchSourceRead)?
    private var stopped = false
    /// Reads the change log (a connection apart, so that the listening one only listens; it
    /// reconnects by itself); opened on first use.
    private var reader: PostgresConnection?
    /// Where the log was read up to; nil until read once since the listening connection opened.
    private var cursor: ChangeLog.Cursor?
    /// When the log was last read (or the connection opened), for `maximumReadGap`.
    private var lastRead = ContinuousClock.now
    /// When the log was last read or tried, for `minimumReadGap`.
    private var lastAttempt = ContinuousClock.now - .seconds(1)
    /// Whether a read waits for `minimumReadGap` to pass.
    private var readScheduled = false
    /// When the log was last pruned.
    private var lastPrune = ContinuousClock.now
    /// Whether reading the log fails (since the last read that worked): reported once, as
    /// `.everyone` to the handler and to `upkeep`.
    private var readFailing = false
    private let pollInterval: Duration
    private let pruneInterval: Duration
    private let retention: Duration

    /// Starts listening (when the database cannot be reached yet, from the first reconnection).
    init(
        url: String,
        timeout: Duration = PostgresConnection.defaultTimeout,
        origin: String,
        queue: DispatchQueue,
        pollInterval: Duration = .seconds(1),
        pruneInterval: Duration = .seconds(60),
        retention: Duration = ChangeLog.retention,
        upkeep: UpkeepReporter = UpkeepReporter(),
        handler: @escaping @Sendable (ExternalChange) -> Void
    ) {
        self.url = url
        self.timeout = timeout
        self.origin = origin
        self.queue = queue
        self.pollInterval = pollInterval
        self.pruneInterval = pruneInterval
        self.retention = retention
        self.handler = handler
        self.upkeep = upkeep
        listening.sync {
            do throws(StorageError) {
                attach(try Self.connect(url, timeout: timeout))
            } catch {
                upkeep.failed(.listenForChanges, error)
                reconnect()
            }
        }
        schedulePoll()
    }

    /// Stops listening and closes the connection (waits for a notice being read).
    func stop() {
        listening.sync {
            stopped = true
            detach()
            reader?.close()
            reader = nil
        }
    }

    private static func connect(_ url: String, timeout: Duration) throws(StorageError) -> PostgresConnection {
        let connection = try PostgresConnection(url: url, timeout: timeout)
        try connection.execute("LISTEN \(ChangeNotice.channel)")
        return connection
    }

    /// On `listening`.
    private func attach(_ connection: PostgresConnection) {
        self.connection = connection
        // From the changes committed after this point: the earlier ones are in the database for
        // whatever reads it next.
        cursor = nil
        lastRead = .now
        readLog()
        let source = DispatchSource.makeReadSource(fileDescriptor: connection.socket, queue: listening)
        source.setEventHandler { [unowned self] in receive() }
        self.source = source
        source.resume()
    }

    /// On `listening`. The connection (and its descriptor) is closed in the source's cancel
    /// handler: a descriptor must outlive its source, or a new connection reusing the number
    /// could meet the old registration in libdispatch.
    private func detach() {
        guard let source else { return }
        self.source = nil
        retiring = connection
        connection = nil
        source.setCancelHandler { [self] in
            retiring?.close()
            retiring = nil
        }
        source.cancel()
    }

    /// On `listening`.
    private func receive() {
        guard let payloads = connection?.notifications() else {
            detach()
            reconnect()
            return
        }
        var wake = false
        for payload in payloads {
            // This server's own (every notification comes back to its sender too), and another
            // logging server's, which only wakes the reader: neither needs parsing.
            guard let sender = ChangeNotice.origin(of: payload), sender != origin else { continue }
            if ChangeNotice.logsChanges(String(sender)) {
                wake = true
                continue
            }
            guard let notice = ChangeNotice(payload: payload) ?? ChangeNotice(unknownPayload: payload) else {
                continue
            }
            report(notice)
        }
        if wake { readSoon() }
    }

    /// On `listening`: reads the log now, or once `minimumReadGap` has passed since the last
    /// read: a storm of notifications is read in fewer, larger reads.
    private func readSoon() {
        let wait = lastAttempt + Self.minimumReadGap - ContinuousClock.now
        guard wait > .zero else { return readLog() }
        guard !readScheduled else { return }
        readScheduled = true
        listening.asyncAfter(deadline: .now() + .nanoseconds(Int(Self.nanoseconds(wait)))) { [weak self] in
            guard let self else { return }
            readScheduled = false
            guard !stopped else { return }
            readLog()
        }
    }

    /// The shortest time between two reads of the log that notifications start.
    static let minimumReadGap: Duration = .milliseconds(2)

    private func report(_ notice: ChangeNotice) {
        let change = ExternalChange.user(notice.user, notice.change)
        queue.async { [handler] in handler(change) }
    }

    /// On `listening`: reports the other servers' logged changes not reported yet.
    private func readLog() {
        guard self.connection != nil else { return }
        lastAttempt = .now
        do throws(StorageError) {
            let connection: PostgresConnection
            if let reader {
                connection = reader
            } else {
                connection = try PostgresConnection(url: url, timeout: timeout)
                reader = connection
            }
            var cursor: ChangeLog.Cursor
            if let known = self.cursor {
                cursor = known
            } else {
                cursor = try Self.start(connection)
            }
            let statement = cursor.statement
            let rows = try connection.query(statement.sql, statement.arguments)
            for (origin, payload) in try cursor.advance(rows: rows) where origin != self.origin {
                guard let notice = ChangeNotice(payload: payload) ?? ChangeNotice(unknownPayload: payload) else {
                    continue
                }
                report(notice)
            }
            self.cursor = cursor
            if ContinuousClock.now - lastRead > retention / 3 {
                // Rows may have been pruned before they were read.
                queue.async { [handler] in handler(.everyone) }
            }
            lastRead = .now
            if readFailing {
                readFailing = false
                upkeep.succeeded(.readChangeLog)
            }
        } catch {
            if !readFailing {
                // The log cannot be read (yet): anything may have changed meanwhile.
                readFailing = true
                upkeep.failed(.readChangeLog, error)
                queue.async { [handler] in handler(.everyone) }
            }
        }
    }

    /// The cursor of a new connection: from the oldest transaction running now.
    private static func start(_ connection: PostgresConnection) throws(StorageError) -> ChangeLog.Cursor {
        let rows = try connection.query("SELECT pg_snapshot_xmin(pg_current_snapshot())::text")
        guard let xmin = rows.first?.first?.text.flatMap({ UInt64($0) }) else {
            throw StorageError(.corrupt, "PostgreSQL gave no snapshot")
        }
        return ChangeLog.Cursor(horizon: xmin)
    }

    /// Reads the log every `pollInterval` (and prunes it every `pruneInterval`) until stopped.
    private func schedulePoll() {
        listening.asyncAfter(deadline: .now() + .nanoseconds(Int(Self.nanoseconds(pollInterval)))) { [weak self] in
            guard let self, !stopped else { return }
            readLog()
            if let reader, ContinuousClock.now - lastPrune >= pruneInterval {
                lastPrune = .now
                let prune = ChangeLog.prune(olderThan: retention)
                do throws(StorageError) {
                    try reader.query(prune.sql, prune.arguments)
                    upkeep.succeeded(.pruneChangeLog)
                } catch {
                    // Tried again a `pruneInterval` later; the log grows meanwhile.
                    upkeep.failed(.pruneChangeLog, error)
                }
            }
            schedulePoll()
        }
    }

    /// On `listening`: tries again every second until the database answers.
    private func reconnect() {
        listening.asyncAfter(deadline: .now() + 1) { [weak self] in
            guard let self, !stopped else { return }
            do throws(StorageError) {
                attach(try Self.connect(url, timeout: timeout))
                upkeep.succeeded(.listenForChanges)
                queue.async { [handler] in handler(.everyone) }
            } catch {
                upkeep.failed(.listenForChanges, error)
                reconnect()
            }
        }
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }
}
