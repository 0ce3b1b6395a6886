import Dispatch
import Foundation
import StreakFraming
public import StreakWire
import Synchronization

/// One TCP connection to streakd: the preface, then many requests in flight at once.
///
/// A reader thread decodes frames and completes the matching calls; a writer thread sends the
/// frames calls queue (`ConnectionWriter`), so that no call blocks its task's thread on the
/// socket. Calls are matched by request id; ids are allocated per connection. After the server's GOAWAY the connection
/// takes no new requests (`isAcceptingRequests` turns false) but still delivers the answers
/// to requests up to the GOAWAY's last id; the others fail with UNAVAILABLE and
/// `isSafeToRetry`, because the server promised not to process them.
public final class StreakConnection: Sendable {
    /// The server this connection talks to.
    public let address: ServerAddress
    let socket: ClientSocket
    /// Sends the frames; the only thread that writes to `socket` after the preface.
    let writer: ConnectionWriter
    private let token: String?

    /// The calls in flight and what ended the connection, guarded together.
    private struct State {
        var nextID: UInt32 = 1
        var pending: [UInt32: PendingCall] = [:]
        var goAway: (lastID: UInt32, status: Status)?
        var closedError: StreakClientError?
    }

    private let state = Mutex(State())

    private init(address: ServerAddress, socket: ClientSocket, token: String?) {
        self.address = address
        self.socket = socket
        self.writer = ConnectionWriter(socket: socket)
        self.token = token
    }

    /// Connects, sends the preface and starts reading.
    /// - Throws: `StreakClientError` with origin `.connect` when the server cannot be reached.
    public static func connect(_ configuration: ClientConfiguration) async throws(StreakClientError) -> StreakConnection
    {
        try await connect(configuration, contexts: ClientTLSContextCache())
    }

    /// Connects with the TLS context from `contexts` (a client keeps one for all its connections).
    static func connect(
        _ configuration: ClientConfiguration,
        contexts: ClientTLSContextCache
    ) async throws(StreakClientError) -> StreakConnection {
        // Everything up to the preface runs on a Dispatch thread: a cooperative pool kept busy
        // by other tasks must not delay the preface past the server's handshake timeout.
        let result: Result<StreakConnection, StreakClientError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    returning: Result { () throws(StreakClientError) in
                        try open(configuration, contexts: contexts)
                    }
                )
            }
        }
        return try result.get()
    }

    /// Connects, sends the preface and starts the reader thread; blocks the calling thread.
    private static func open(
        _ configuration: ClientConfiguration,
        contexts: ClientTLSContextCache
    ) throws(StreakClientError) -> StreakConnection {
        let tls = try configuration.tls.map { tls throws(StreakClientError) in
            (context: try contexts.context(for: tls), serverName: tls.serverName ?? configuration.server.host)
        }
        let socket = try ClientSocket.connect(to: configuration.server, timeout: configuration.connectTimeout, tls: tls)
        guard socket.write(Preface.bytes) else {
            socket.shutdown()
            throw StreakClientError(
                .unavailable,
                "connection to streakd at \(configuration.server) closed",
                origin: .connect
            )
        }
        let connection = StreakConnection(address: configuration.server, socket: socket, token: configuration.token)
        let thread = Thread { [connection] in connection.readLoop() }
        thread.name = "streak-client-reader"
        thread.start()
        return connection
    }

    /// False after a GOAWAY or once the connection closed: new requests need a new connection.
    public var isAcceptingRequests: Bool {
        state.withLock { $0.goAway == nil && $0.closedError == nil }
    }

    /// The number of requests waiting for an answer.
    public var inFlightCount: Int {
        state.withLock { $0.pending.count }
    }

    /// Closes the connection; calls still waiting fail with UNAVAILABLE.
    public func close() {
        shutDown()
    }

    /// Shuts the socket down (the reader then ends the connection, a blocked write wakes up)
    /// and drops the frames not sent yet.
    private func shutDown() {
        writer.close()
        socket.shutdown()
    }

    /// Calls a unary method.
    /// - Parameters:
    ///   - method: the method; must not be server-streaming.
    ///   - request: the request message.
    ///   - deadline: sent as `deadline-ms`; the call also fails locally with DEADLINE_EXCEEDED once it passes.
    /// - Returns: the decoded response.
    /// - Throws: `StreakClientError`: the server's status, or a local one (see the type).
    public func call<Request: WireMessage, Response: WireMessage>(
        _ method: WireMethod,
        _ request: Request,
        deadline: Duration? = nil
    ) async throws(StreakClientError) -> Response {
        let call = UnaryCall()
        let id = try register(.unary(call))
        let bytes = requestFrame(id: id, method: method, request: request, deadline: deadline)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<CallResult, Never>) in
                // Queued under the state lock: a cancellation that sees the continuation knows
                // the request is in the writer's queue (or went out), and withdraws or cancels it.
                let start: CallStart = state.withLock { _ in
                    if let result = call.result { return .answered(result) }
                    call.continuation = continuation
                    return writer.enqueue(bytes, request: id) ? .queued : .writerClosed
                }
                switch start {
                case .answered(let result): continuation.resume(returning: result)
                case .queued: startDeadline(deadline, for: id)
                case .writerClosed: finish(id, .failure(brokenError()))
                }
            }
        } onCancel: {
            cancel(id, StreakClientError(.cancelled, "cancelled by the caller"))
        }
        let message = try result.get()
        do {
            return try Response(serializedBytes: message)
        } catch {
            throw StreakClientError(.internal, "cannot decode the \(method.name) response: \(error.message)")
        }
    }

    /// Starts a server-streaming call (Watch). Ending the iteration, or cancelling the task
    /// that iterates, sends CANCEL.
    /// - Throws: `StreakClientError` when the connection takes no new requests.
    public func stream<Request: WireMessage, Response: WireMessage>(
        _ method: WireMethod,
        _ request: Request,
        as type: Response.Type = Response.self,
        deadline: Duration? = nil
    ) throws(StreakClientError) -> StreakResponseStream<Response> {
        let (stream, continuation) = AsyncStream<CallResult>.makeStream()
        let id = try register(.stream(continuation))
        let bytes = requestFrame(id: id, method: method, request: request, deadline: deadline)
        let queued = writer.enqueue(bytes, request: id)
        continuation.onTermination = { [weak self] _ in
            self?.cancel(id, StreakClientError(.cancelled, "stream ended by the caller"))
        }
        if queued {
            startDeadline(deadline, for: id)
        } else {
            finish(id, .failure(brokenError()))
        }
        return StreakResponseStream(results: stream)
    }

    // MARK: - Requests

    /// How a unary call started: answered before its request was queued (a cancellation
    /// raced it), queued, or not, because the connection had ended.
    private enum CallStart {
        case answered(CallResult)
        case queued
        case writerClosed
    }

    private func register(_ call: PendingCall) throws(StreakClientError) -> UInt32 {
        let address = address
        let registered: Result<UInt32, StreakClientError> = state.withLock { state in
            if let closedError = state.closedError { return .failure(closedError) }
            // The GOAWAY's reason too: a refusal (a plaintext client on a TLS port) may arrive
            // before the first request is registered.
            if let goAway = state.goAway { return .failure(Self.goingAway(address, goAway.status)) }
            var id = state.nextID
            while id == 0 || state.pending[id] != nil { id &+= 1 }
            state.nextID = id &+ 1
            state.pending[id] = call
            return .success(id)
        }
        return try registered.get()
    }

    private func requestFrame(id: UInt32, method: WireMethod, request: some WireMessage, deadline: Duration?) -> [UInt8]
    {
        var metadata: [MetadataEntry] = []
        if method.requiresAuthentication, let token {
            metadata.append(MetadataEntry(key: MetadataEntry.authorizationKey, value: "Bearer \(token)"))
        }
        if let deadline {
            metadata.append(MetadataEntry(key: MetadataEntry.deadlineKey, value: String(deadline.wholeMilliseconds)))
        }
        let frame = Frame.request(
            id: id,
            method: method.rawValue,
            metadata: metadata,
            message: request.serializedBytes()
        )
        return FrameEncoder.encode(frame)
    }

    /// Fails call `id` with DEADLINE_EXCEEDED once `deadline` passed, counted from the moment
    /// its request was queued.
    private func startDeadline(_ deadline: Duration?, for id: UInt32) {
        if let deadline {
            let nanoseconds = max(0, deadline.wholeMilliseconds) * 1_000_000
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds))) {
                [weak self] in
                self?.cancel(id, StreakClientError(.deadlineExceeded, "deadline of \(deadline) exceeded"))
            }
        }
    }

    /// Fails a pending call with `error`. A request still waiting in the writer's queue is
    /// taken back; one that (partly) went out is followed by a CANCEL for the server.
    private func cancel(_ id: UInt32, _ error: StreakClientError) {
        let wasQueued: Bool = state.withLock { state in
            switch state.pending[id] {
            case .unary(let call)?: call.continuation != nil
            case .stream?: true
            case nil: false
            }
        }
        if finish(id, .failure(error)) && wasQueued && !writer.withdraw(request: id) {
            writer.enqueue(FrameEncoder.encode(.cancel(id: id)))
        }
    }

    /// Completes a call; false when it was no longer pending.
    @discardableResult
    private func finish(_ id: UInt32, _ result: CallResult) -> Bool {
        /// What to do outside the lock.
        enum Completion {
            case resume(CheckedContinuation<CallResult, Never>?)
            case stream(AsyncStream<CallResult>.Continuation)
        }
        let removed: (Completion, shouldClose: Bool)? = state.withLock { state in
            guard let call = state.pending.removeValue(forKey: id) else { return nil }
            let shouldClose = state.goAway != nil && state.pending.isEmpty
            switch call {
            case .unary(let unary):
                let continuation = unary.continuation
                if continuation == nil { unary.result = result }
                return (.resume(continuation), shouldClose)
            case .stream(let continuation):
                return (.stream(continuation), shouldClose)
            }
        }
        guard let (completion, shouldClose) = removed else { return false }
        switch completion {
        case .resume(let continuation):
            continuation?.resume(returning: result)
        case .stream(let continuation):
            if case .failure = result { continuation.yield(result) }
            continuation.finish()
        }
        if shouldClose { shutDown() }
        return true
    }

    // MARK: - Called by the reader thread

    func deliver(_ id: UInt32, _ result: CallResult) {
        finish(id, result)
    }

    func deliverStreamMessage(_ id: UInt32, _ message: [UInt8]) {
        let continuation: AsyncStream<CallResult>.Continuation? = state.withLock { state in
            if case .stream(let continuation)? = state.pending[id] { return continuation }
            return nil
        }
        continuation?.yield(.success(message))
    }

    func receivedGoAway(lastID: UInt32, status: Status) {
        let (unanswered, idle): ([UInt32], Bool) = state.withLock { state in
            state.goAway = (lastID, status)
            let unanswered = state.pending.keys.filter { $0 > lastID }
            return (unanswered, state.pending.count == unanswered.count)
        }
        let error = Self.goingAway(address, status)
        for id in unanswered { finish(id, .failure(error)) }
        if idle { shutDown() }
    }

    /// The error of a request the server will not process because it sent GOAWAY with `status`.
    private static func goingAway(_ address: ServerAddress, _ status: Status) -> StreakClientError {
        StreakClientError(
            .unavailable,
            "streakd at \(address) is going away (\(status)); the request was not processed",
            origin: .connection,
            isSafeToRetry: true
        )
    }

    func connectionEnded(_ failure: StreakClientError?) {
        let address = address
        let (ids, error): ([UInt32], StreakClientError) = state.withLock { state in
            let reason =
                state.goAway.map { "streakd at \(address) went away (\($0.status))" }
                ?? "connection to streakd at \(address) closed"
            let error = failure ?? StreakClientError(.unavailable, reason, origin: .connection)
            state.closedError = error
            return (Array(state.pending.keys), error)
        }
        writer.close()
        for id in ids { finish(id, .failure(error)) }
    }

    private func brokenError() -> StreakClientError {
        state.withLock { $0.closedError }
            ?? StreakClientError(.unavailable, "connection to streakd at \(address) broke", origin: .connection)
    }
}

extension Duration {
    /// The duration in whole milliseconds, rounded up so that a short deadline is never 0.
    var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    }
}
