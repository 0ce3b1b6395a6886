import Foundation
public import StreakWire
import Synchronization

/// A client of one streakd: typed methods for every rpc over a shared connection that is
/// replaced after a GOAWAY or a break.
///
/// New requests go to the current connection; when it takes no new requests (the server
/// sent GOAWAY, or the connection closed) the next call connects afresh. A request the
/// server refused to process because of a GOAWAY is retried once on a fresh connection, and
/// `watch` subscribes again (see `WatchReconnectPolicy`).
public final class StreakClient: Sendable {
    /// The configuration: server, token, default deadline.
    public let configuration: ClientConfiguration

    private struct State {
        var current: StreakConnection?
        var connecting: Task<Result<StreakConnection, StreakClientError>, Never>?
        var closeCount = 0
    }

    private let state = Mutex(State())
    /// The TLS context of every connection, made on the first.
    private let tlsContexts = ClientTLSContextCache()

    /// Creates a client; it connects on the first call.
    public init(configuration: ClientConfiguration) {
        self.configuration = configuration
    }

    deinit {
        state.withLock { $0.current }?.close()
    }

    /// Closes the current connection; a watch started before stops instead of reconnecting.
    /// A later call connects afresh.
    public func close() {
        let connection = state.withLock { state in
            defer {
                state.current = nil
                state.closeCount += 1
            }
            return state.current
        }
        connection?.close()
    }

    /// How many times `close()` was called: a watch compares it to know whether to reconnect.
    var closeGeneration: Int { state.withLock { $0.closeCount } }

    /// The connection new requests go to, connecting when there is none that accepts requests.
    /// - Throws: `StreakClientError` with origin `.connect` when the server cannot be reached.
    public func connection() async throws(StreakClientError) -> StreakConnection {
        if let connection = state.withLock({ $0.current }), connection.isAcceptingRequests {
            return connection
        }
        // One connect at a time: concurrent callers wait for the same attempt.
        let attempt: Task<Result<StreakConnection, StreakClientError>, Never> = state.withLock { state in
            if let connection = state.current, connection.isAcceptingRequests {
                return Task { .success(connection) }
            }
            if let connecting = state.connecting { return connecting }
            let configuration = configuration
            let task = Task { () -> Result<StreakConnection, StreakClientError> in
                do throws(StreakClientError) {
                    return .success(try await StreakConnection.connect(configuration, contexts: tlsContexts))
                } catch {
                    return .failure(error)
                }
            }
            state.connecting = task
            return task
        }
        let result = await attempt.value
        state.withLock { state in
            if state.connecting == attempt {
                state.connecting = nil
                if case .success(let connection) = result { state.current = connection }
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
        try Self.checkNames(method, request)
        do {
            return try await connection().call(method, request, deadline: deadline)
        } catch  where error.isSafeToRetry {
            return try await connection().call(method, request, deadline: deadline)
        }
    }
}
