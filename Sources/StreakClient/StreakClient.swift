import Foundation
public import StreakWire

/// A client of one streakd: typed methods for every rpc over a shared connection that is
/// replaced after a GOAWAY or a break.
///
/// New requests go to the current connection; when it takes no new requests (the server
/// sent GOAWAY, or the connection closed) the next call connects afresh. A request the
/// server refused to process because of a GOAWAY is retried once on a fresh connection.
public final class StreakClient: @unchecked Sendable {
    /// The configuration: server, token, default deadline.
    public let configuration: ClientConfiguration
    private let lock = NSLock()
    private var current: StreakConnection?
    private var connecting: Task<Result<StreakConnection, StreakClientError>, Never>?

    /// Creates a client; it connects on the first call.
    public init(configuration: ClientConfiguration) {
        self.configuration = configuration
    }

    deinit {
        current?.close()
    }

    /// Closes the current connection.
    public func close() {
        let connection = lock.withLock {
            defer { current = nil }
            return current
        }
        connection?.close()
    }

    /// The connection new requests go to, connecting when there is none that accepts requests.
    /// - Throws: `StreakClientError` with origin `.connect` when the server cannot be reached.
    public func connection() async throws(StreakClientError) -> StreakConnection {
        if let connection = lock.withLock({ current }), connection.isAcceptingRequests {
            return connection
        }
        // One connect at a time: concurrent callers wait for the same attempt.
        let attempt: Task<Result<StreakConnection, StreakClientError>, Never> = lock.withLock {
            if let connection = current, connection.isAcceptingRequests {
                return Task { .success(connection) }
            }
            if let connecting { return connecting }
            let configuration = configuration
            let task = Task { () -> Result<StreakConnection, StreakClientError> in
                do throws(StreakClientError) {
                    return .success(try await StreakConnection.connect(configuration))
                } catch {
                    return .failure(error)
                }
            }
            connecting = task
            return task
        }
        let result = await attempt.value
        lock.withLock {
            if connecting == attempt {
                connecting = nil
                if case .success(let connection) = result { current = connection }
            }
        }
        return try result.get()
    }

    /// Calls a unary method on the current connection.
    /// - Parameters:
    ///   - method: the method.
    ///   - request: the request message.
    ///   - deadline: the call's deadline; nil uses `configuration.defaultDeadline`.
    /// - Returns: the response.
    /// - Throws: `StreakClientError`.
    public func call<Request: WireMessage, Response: WireMessage>(
        _ method: WireMethod,
        _ request: Request,
        deadline: Duration? = nil
    ) async throws(StreakClientError) -> Response {
        let deadline = deadline ?? configuration.defaultDeadline
        do {
            return try await connection().call(method, request, deadline: deadline)
        } catch  where error.isSafeToRetry {
            return try await connection().call(method, request, deadline: deadline)
        }
    }

    /// Watches the user's completions: a `WireWatchEvent` each time one changes.
    /// - Parameter request: `asOf` fixes the day the pushed streaks are computed for.
    /// - Returns: the events, until the server ends the stream or the caller stops iterating.
    /// - Throws: `StreakClientError` when no connection can be made.
    public func watch(
        _ request: WireWatchRequest = WireWatchRequest()
    ) async throws(StreakClientError) -> StreakResponseStream<WireWatchEvent> {
        try await connection().stream(.watch, request, as: WireWatchEvent.self)
    }
}
