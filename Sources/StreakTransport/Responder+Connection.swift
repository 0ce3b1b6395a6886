import StreakFraming

/// What the connection asks of its responder, on the connection's loop.
extension Responder {
    var inFlightCount: Int { state.withLock { $0.inFlight.count } }

    /// Before any answer was seen, a request is taken to answer with this many bytes.
    static let initialAnswerEstimate = 256 * 1024
    static let smallestAnswerEstimate = 1024

    /// What decides whether another request may start computing: the output waiting for the
    /// client, the requests in flight that are not streams, and the answer size estimate.
    var outputBudget: (pending: Int, unary: Int, answerEstimate: Int) {
        state.withLock { state in
            (
                state.output.count + state.unsentBytes, state.inFlight.values.lazy.filter { !$0.isStream }.count,
                state.answerEstimate
            )
        }
    }

    /// Whether every request was answered and every answer taken for sending, checked together:
    /// an answer given after the last `takeOutput()` must keep the connection from closing.
    var isFinished: Bool { state.withLock { $0.inFlight.isEmpty && $0.output.isEmpty } }

    /// The bytes of the requests in flight (as read: message, method and metadata).
    var requestBytesInFlight: Int { state.withLock { $0.requestBytes } }

    /// Registers request `id`, read with `bytes` bytes; `streaming` for a server-streaming method
    /// (whose final frame is END_STREAM however it ends).
    func register(_ id: UInt32, limit: Int, streaming: Bool = false, bytes: Int = 0) -> Registration {
        state.withLock { state in
            guard state.inFlight[id] == nil else { return .duplicate }
            guard state.inFlight.count < limit else { return .overLimit }
            guard state.holdRequestBytes(state.requestBytes + bytes) else { return .overBudget }
            state.nextGeneration &+= 1
            state.inFlight[id] = State.Entry(
                generation: state.nextGeneration,
                isStreamingMethod: streaming,
                bytes: bytes
            )
            return .accepted(generation: state.nextGeneration)
        }
    }

    /// Writes a frame that answers no registered request (PONG, GOAWAY, refusals).
    func send(_ frame: Frame) {
        if state.withLock({ $0.write(frame) }) { scheduleFlush() }
    }

    /// Writes bytes that are not a frame (the preface).
    func sendRaw(_ bytes: [UInt8]) {
        let schedule = state.withLock { state in
            state.output.append(contentsOf: bytes)
            return state.needsFlush()
        }
        if schedule { scheduleFlush() }
    }

    /// Ends `id` on the transport's behalf (CANCEL, deadline, shutdown), if it is still in flight.
    func terminate(_ id: UInt32, generation: UInt64? = nil, status: Status) {
        let (handlers, schedule) = state.withLock { state -> ([@Sendable () -> Void], Bool) in
            guard state.isCurrent(id, generation) else { return ([], false) }
            return state.end(id, status: status, asStream: nil)
        }
        if schedule { scheduleFlush() }
        for handler in handlers { handler() }
    }

    /// Ends every open stream with `status` (protocol error, shutdown), and any stream opened
    /// later at once; unary requests keep running.
    func endAllStreams(status: Status) {
        let streams = state.withLock { state in
            if state.streamsEndedStatus == nil { state.streamsEndedStatus = status }
            return state.inFlight.filter(\.value.isStream).map(\.key)
        }
        for id in streams { terminate(id, status: status) }
    }

    /// The connection's unsent output, counted against the stream output limit; wakes the streams
    /// waiting for the output to fall this low (`resumeWhenOutputDrains`).
    func noteUnsentBytes(_ count: Int) {
        let drained = state.withLock { state in
            state.unsentBytes = count
            return state.takeDrainedWaiters()
        }
        for resume in drained { resume() }
    }

    func beginBurst() {
        state.withLock { $0.inBurst = true }
    }

    func endBurst() {
        state.withLock { $0.inBurst = false }
    }

    /// The output written since the last call.
    func takeOutput() -> [UInt8] {
        state.withLock { state in
            state.flushScheduled = false
            guard !state.output.isEmpty else { return [] }
            defer { state.output = [] }
            return state.output
        }
    }

    /// Drops everything still in flight and runs the stream termination handlers.
    func connectionClosed() {
        let handlers: [@Sendable () -> Void] = state.withLock { state in
            state.closed = true
            state.output = []
            state.drainWaiters = [:]
            state.releaseRequestBytes()
            defer { state.inFlight = [:] }
            return state.inFlight.values.flatMap(\.terminationHandlers)
        }
        for handler in handlers { handler() }
    }
}
