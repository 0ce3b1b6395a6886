import Dispatch
import StreakFraming
import Synchronization

/// Answers the requests of one connection, from any thread.
///
/// Each request is answered at most once: late, duplicate and cancelled answers are dropped,
/// and a request whose deadline passed was already answered DEADLINE_EXCEEDED by the
/// transport. Answers given during a read burst are written together with one `send`.
public final class Responder: Sendable {
    /// What happened to a request the transport tried to register.
    enum Registration: Equatable {
        case accepted(generation: UInt64)
        case duplicate
        case overLimit
        /// The transport's request budget cannot hold the request's bytes.
        case overBudget
    }

    /// Guards everything that changes; the flush block is scheduled after the lock is released.
    let state: Mutex<State>
    private let executor: any LoopExecutor
    private let flush: @Sendable () -> Void
    private let streamOutputLimit: Int
    private let maxFrameSize: Int
    /// The client's address, for log lines about its requests.
    public let peer: String
    /// Whatever the handler keeps for this connection from one `RequestHandler.handle` call to
    /// the next; the transport never reads it. Read and written only inside `handle`, which runs
    /// on the connection's loop thread, one call at a time.
    package nonisolated(unsafe) var handlerMemo: AnyObject?

    /// - Parameters:
    ///   - streamOutputLimit: a stream message that finds more output than this waiting for the
    ///     client ends its stream with RESOURCE_EXHAUSTED instead of piling up.
    ///   - maxFrameSize: the largest frame sent, as the largest one read: an answer or stream
    ///     message that would be larger is replaced by RESOURCE_EXHAUSTED (clients refuse such frames).
    ///   - peer: the client's address.
    ///   - requestBudget: the request bytes in flight all connections hold together (past an
    ///     allowance each); a request the budget cannot hold is not registered.
    init(
        executor: any LoopExecutor,
        streamOutputLimit: Int = .max,
        maxFrameSize: Int = FrameDecoder.defaultMaxFrameSize,
        peer: String = "-",
        requestBudget: ByteBudget? = nil,
        flush: @escaping @Sendable () -> Void
    ) {
        self.state = Mutex(State(requestBudget: requestBudget))
        self.executor = executor
        self.peer = peer
        self.streamOutputLimit = streamOutputLimit
        self.maxFrameSize = maxFrameSize
        self.flush = flush
    }

    /// Answers a unary request. Dropped when the request is no longer active.
    /// - Parameter generation: when given, the answer is dropped unless `id` is still that
    ///   request (and not a later one that reused the id).
    public func respond(to id: UInt32, generation: UInt64? = nil, status: Status, message: [UInt8]) {
        // A RESPONSE frame: kind and id (5 bytes), the status code and message length (3), then both.
        let fits = 8 + status.message.utf8.count + message.count <= maxFrameSize
        let (status, message) = fits ? (status, message) : (Self.tooLarge("an answer of \(message.count) bytes"), [])
        let scheduleFlush = state.withLock { state in
            guard state.isCurrent(id, generation) else { return false }
            state.remove(id)
            let decayed = state.answerEstimate - state.answerEstimate / 8
            state.answerEstimate = max(message.count, decayed, Responder.smallestAnswerEstimate)
            return state.write(.response(id: id, status: status, message: message))
        }
        if scheduleFlush { self.scheduleFlush() }
    }

    /// Answers `request`, unless it ended and its id was reused since.
    public func respond(to request: IncomingRequest, status: Status, message: [UInt8]) {
        respond(to: request.id, generation: request.generation, status: status, message: message)
    }

    /// Sends one message of a server-streaming call.
    ///
    /// When more output than the limit already waits for the client, the stream ends with
    /// RESOURCE_EXHAUSTED instead (a watcher that does not read must not grow the server).
    /// - Returns: false when the stream is gone (or was ended here).
    @discardableResult
    public func sendStreamMessage(to id: UInt32, generation: UInt64? = nil, message: [UInt8]) -> Bool {
        let tooLarge = 5 + message.count > maxFrameSize
        let (sent, handlers, scheduleFlush) = state.withLock { state -> (Bool, [@Sendable () -> Void], Bool) in
            guard state.isCurrent(id, generation) else { return (false, [], false) }
            if tooLarge {
                let ended = state.end(
                    id,
                    status: Self.tooLarge("a stream message of \(message.count) bytes"),
                    asStream: true
                )
                return (false, ended.handlers, ended.flush)
            }
            if state.output.count + state.unsentBytes > streamOutputLimit {
                let ended = state.end(id, status: Self.slowReader, asStream: true)
                return (false, ended.handlers, ended.flush)
            }
            _ = state.markStream(id)
            return (true, [], state.write(.streamMessage(id: id, message: message)))
        }
        if scheduleFlush { self.scheduleFlush() }
        for handler in handlers { handler() }
        return sent
    }

    /// Ends a server-streaming call with its final status.
    public func endStream(_ id: UInt32, generation: UInt64? = nil, status: Status) {
        let scheduleFlush = state.withLock { state in
            guard state.isCurrent(id, generation) else { return false }
            state.remove(id)
            return state.write(.endStream(id: id, status: status))
        }
        if scheduleFlush { self.scheduleFlush() }
    }

    /// The bytes written for the client that it has not read yet (queued here and unsent on the
    /// socket): a producer of a long stream waits while this is high instead of piling up output.
    public var pendingOutputBytes: Int {
        state.withLock { $0.pendingBytes }
    }

    /// Waits for the client to read, without polling: keeps `resume` and runs it once, on the
    /// connection's event loop, as soon as the connection's writes bring the output waiting for
    /// the client (`pendingOutputBytes`) to `threshold` bytes or fewer. A stream has at most one
    /// waiter (a second call replaces the first); it is dropped unrun, and what it captured
    /// released, when the stream ends first (CANCEL, deadline, connection closed, shutdown).
    /// - Returns: false, keeping nothing, when stream `id` is open and the output is already at
    ///   or under `threshold` (the caller goes on now); true when `resume` was kept, or dropped
    ///   because the stream is gone.
    public func resumeWhenOutputDrains(
        to threshold: Int,
        stream id: UInt32,
        generation: UInt64? = nil,
        _ resume: @escaping @Sendable () -> Void
    ) -> Bool {
        state.withLock { state in
            guard state.isCurrent(id, generation) else { return true }
            guard state.pendingBytes > threshold else { return false }
            state.drainWaiters[id] = State.DrainWaiter(threshold: threshold, resume: resume)
            return true
        }
    }

    /// Whether `id` still waits for an answer (not answered, cancelled, expired or closed).
    public func isActive(_ id: UInt32, generation: UInt64? = nil) -> Bool {
        state.withLock { $0.isCurrent(id, generation) }
    }

    /// Marks `id` as a stream and runs `handler` once when it ends without the handler ending it:
    /// on CANCEL, deadline, connection close or shutdown. Runs at once when `id` is already gone
    /// (or is a later request that reused the id); ends the stream at once when every stream of
    /// the connection was already ended (a protocol error or shutdown came first).
    public func onStreamTermination(
        _ id: UInt32,
        generation: UInt64? = nil,
        _ handler: @escaping @Sendable () -> Void
    ) {
        let (handlers, scheduleFlush) = state.withLock { state -> ([@Sendable () -> Void], Bool) in
            guard state.isCurrent(id, generation) else { return ([handler], false) }
            // A request that became a stream no longer counts as an answer being computed, nor
            // its bytes as held: the connection may hand over requests it held, and read again
            // (a flush runs its dispatch and its read check).
            let becameStream = state.markStream(id)
            state.inFlight[id]?.terminationHandlers.append(handler)
            guard let status = state.streamsEndedStatus else { return ([], becameStream && !state.inBurst) }
            return state.end(id, status: status, asStream: true)
        }
        if scheduleFlush { self.scheduleFlush() }
        for handler in handlers { handler() }
    }

    /// Schedules the block that moves output to the socket, on the connection's event loop.
    func scheduleFlush() {
        executor.execute(flush)
    }

    /// The status of an answer that would not fit in a frame.
    static func tooLarge(_ what: String) -> Status {
        Status(.resourceExhausted, "\(what) is over the frame limit; ask for less (a shorter range, a smaller page)")
    }

    /// The status of a stream ended because the client does not read fast enough.
    static let slowReader = Status(
        .resourceExhausted,
        "the client reads too slowly: too much output is waiting, the stream ends"
    )
}
