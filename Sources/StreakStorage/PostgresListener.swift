import Dispatch
import FoundationEssentials

/// Listens for the `ChangeNotice`s of the other servers sharing a PostgreSQL database, on a
/// connection of its own watched by a Dispatch read source, and reports them as `ExternalChange`s
/// on `queue`.
///
/// When the connection breaks, or cannot be opened at the start, notices may be lost: it
/// reconnects (every second until it can) and then reports `.everyone`, so that no server keeps
/// serving data it did not see change.
final class PostgresListener: @unchecked Sendable {
    private let url: String
    private let origin: String
    private let queue: DispatchQueue
    private let handler: @Sendable (ExternalChange) -> Void
    /// The listener's own serial queue: the connection and the source are only touched on it.
    private let listening = DispatchQueue(label: "streakd.storage.listen")
    private var connection: PostgresConnection?
    /// The connection of a cancelled source, until its cancel handler closes it.
    private var retiring: PostgresConnection?
    private var source: (any DispatchSourceRead)?
    private var stopped = false

    /// Starts listening (when the database cannot be reached yet, from the first reconnection).
    init(
        url: String,
        origin: String,
        queue: DispatchQueue,
        handler: @escaping @Sendable (ExternalChange) -> Void
    ) {
        self.url = url
        self.origin = origin
        self.queue = queue
        self.handler = handler
        listening.sync {
            do {
                attach(try Self.connect(url))
            } catch {
                reconnect()
            }
        }
    }

    /// Stops listening and closes the connection (waits for a notice being read).
    func stop() {
        listening.sync {
            stopped = true
            detach()
        }
    }

    private static func connect(_ url: String) throws(StorageError) -> PostgresConnection {
        let connection = try PostgresConnection(url: url)
        try connection.execute("LISTEN \(ChangeNotice.channel)")
        return connection
    }

    /// On `listening`.
    private func attach(_ connection: PostgresConnection) {
        self.connection = connection
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
        for payload in payloads {
            guard let notice = ChangeNotice(payload: payload) ?? ChangeNotice(unknownPayload: payload),
                notice.origin != origin
            else { continue }
            let change = ExternalChange.user(notice.user, notice.change)
            queue.async { [handler] in handler(change) }
        }
    }

    /// On `listening`: tries again every second until the database answers.
    private func reconnect() {
        listening.asyncAfter(deadline: .now() + 1) { [weak self] in
            guard let self, !stopped else { return }
            do {
                attach(try Self.connect(url))
                queue.async { [handler] in handler(.everyone) }
            } catch {
                reconnect()
            }
        }
    }
}
