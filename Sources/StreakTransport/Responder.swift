import Dispatch
import Foundation
import StreakFraming

/// Answers the requests of one connection, from any thread.
///
/// Each request is answered at most once: late, duplicate and cancelled answers are dropped,
/// and a request whose deadline passed was already answered DEADLINE_EXCEEDED by the
/// transport. Answers given during a read burst are written together with one `send`.
public final class Responder: @unchecked Sendable {
    private struct Entry {
        var generation: UInt64
        var isStream = false
        var terminationHandlers: [@Sendable () -> Void] = []
    }

    /// What happened to a request the transport tried to register.
    enum Registration: Equatable {
        case accepted(generation: UInt64)
        case duplicate
        case overLimit
    }

    private let lock = NSLock()
    private let queue: DispatchQueue
    private let flush: @Sendable () -> Void
    private let streamOutputLimit: Int
    private var output: [UInt8] = []
    private var inFlight: [UInt32: Entry] = [:]
    private var nextGeneration: UInt64 = 0
    private var inBurst = false
    private var flushScheduled = false
    private var closed = false
    /// Output the connection took but could not send yet.
    private var unsentBytes = 0
    /// Set once every stream was ended (protocol error, shutdown): a stream opened later ends at once.
    private var streamsEndedStatus: Status?

    /// - Parameters:
    ///   - streamOutputLimit: a stream message that finds more output than this waiting for the
    ///     client ends its stream with RESOURCE_EXHAUSTED instead of piling up.
    init(queue: DispatchQueue, streamOutputLimit: Int = .max, flush: @escaping @Sendable () -> Void) {
        self.queue = queue
        self.streamOutputLimit = streamOutputLimit
        self.flush = flush
    }

    /// Answers a unary request. Dropped when the request is no longer active.
    /// - Parameter generation: when given, the answer is dropped unless `id` is still that
    ///   request (and not a later one that reused the id).
    public func respond(to id: UInt32, generation: UInt64? = nil, status: Status, message: [UInt8]) {
        lock.lock()
        defer { lock.unlock() }
        guard isCurrentLocked(id, generation) else { return }
        inFlight[id] = nil
        FrameEncoder.encode(.response(id: id, status: status, message: message), into: &output)
        scheduleFlushLocked()
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
        lock.lock()
        guard isCurrentLocked(id, generation) else {
            lock.unlock()
            return false
        }
        if output.count + unsentBytes > streamOutputLimit {
            let handlers = endLocked(id, status: Self.slowReader, asStream: true)
            lock.unlock()
            for handler in handlers { handler() }
            return false
        }
        inFlight[id]?.isStream = true
        FrameEncoder.encode(.streamMessage(id: id, message: message), into: &output)
        scheduleFlushLocked()
        lock.unlock()
        return true
    }

    /// Ends a server-streaming call with its final status.
    public func endStream(_ id: UInt32, generation: UInt64? = nil, status: Status) {
        lock.lock()
        defer { lock.unlock() }
        guard isCurrentLocked(id, generation) else { return }
        inFlight[id] = nil
        FrameEncoder.encode(.endStream(id: id, status: status), into: &output)
        scheduleFlushLocked()
    }

    /// Whether `id` still waits for an answer (not answered, cancelled, expired or closed).
    public func isActive(_ id: UInt32, generation: UInt64? = nil) -> Bool {
        lock.withLock { isCurrentLocked(id, generation) }
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
        let handlers: [@Sendable () -> Void] = lock.withLock {
            guard isCurrentLocked(id, generation) else { return [handler] }
            inFlight[id]?.isStream = true
            inFlight[id]?.terminationHandlers.append(handler)
            guard let status = streamsEndedStatus else { return [] }
            return endLocked(id, status: status, asStream: true)
        }
        for handler in handlers { handler() }
    }

    /// The status of a stream ended because the client does not read fast enough.
    static let slowReader = Status(
        .resourceExhausted,
        "the client reads too slowly: too much output is waiting, the stream ends"
    )

    // MARK: - For the connection (on its queue)

    var inFlightCount: Int { lock.withLock { inFlight.count } }

    /// Whether every request was answered and every answer taken for sending, checked together:
    /// an answer given after the last `takeOutput()` must keep the connection from closing.
    var isFinished: Bool { lock.withLock { inFlight.isEmpty && output.isEmpty } }

    func register(_ id: UInt32, limit: Int) -> Registration {
        lock.withLock {
            guard inFlight[id] == nil else { return .duplicate }
            guard inFlight.count < limit else { return .overLimit }
            nextGeneration &+= 1
            inFlight[id] = Entry(generation: nextGeneration)
            return .accepted(generation: nextGeneration)
        }
    }

    /// Writes a frame that answers no registered request (PONG, GOAWAY, refusals).
    func send(_ frame: Frame) {
        lock.withLock {
            FrameEncoder.encode(frame, into: &output)
            scheduleFlushLocked()
        }
    }

    /// Writes bytes that are not a frame (the preface).
    func sendRaw(_ bytes: [UInt8]) {
        lock.withLock {
            output.append(contentsOf: bytes)
            scheduleFlushLocked()
        }
    }

    /// Ends `id` on the transport's behalf (CANCEL, deadline, shutdown), if it is still in flight.
    func terminate(_ id: UInt32, generation: UInt64? = nil, status: Status) {
        let handlers: [@Sendable () -> Void] = lock.withLock {
            guard isCurrentLocked(id, generation) else { return [] }
            return endLocked(id, status: status, asStream: nil)
        }
        for handler in handlers { handler() }
    }

    /// Ends every open stream with `status` (protocol error, shutdown), and any stream opened
    /// later at once; unary requests keep running.
    func endAllStreams(status: Status) {
        let streams = lock.withLock {
            if streamsEndedStatus == nil { streamsEndedStatus = status }
            return inFlight.filter(\.value.isStream).map(\.key)
        }
        for id in streams { terminate(id, status: status) }
    }

    /// The connection's unsent output, counted against the stream output limit.
    func noteUnsentBytes(_ count: Int) {
        lock.withLock { unsentBytes = count }
    }

    func beginBurst() {
        lock.withLock { inBurst = true }
    }

    func endBurst() {
        lock.withLock { inBurst = false }
    }

    /// The output written since the last call.
    func takeOutput() -> [UInt8] {
        lock.withLock {
            flushScheduled = false
            guard !output.isEmpty else { return [] }
            defer { output = [] }
            return output
        }
    }

    /// Drops everything still in flight and runs the stream termination handlers.
    func connectionClosed() {
        let handlers: [@Sendable () -> Void] = lock.withLock {
            closed = true
            output = []
            defer { inFlight = [:] }
            return inFlight.values.flatMap(\.terminationHandlers)
        }
        for handler in handlers { handler() }
    }

    private func isCurrentLocked(_ id: UInt32, _ generation: UInt64?) -> Bool {
        guard let entry = inFlight[id] else { return false }
        return generation == nil || entry.generation == generation
    }

    /// Removes `id` and writes its final frame (END_STREAM when `asStream` or when it is a
    /// stream, else RESPONSE). - Returns: its termination handlers, to run outside the lock.
    private func endLocked(_ id: UInt32, status: Status, asStream: Bool?) -> [@Sendable () -> Void] {
        guard let entry = inFlight.removeValue(forKey: id) else { return [] }
        let frame: Frame =
            asStream ?? entry.isStream
            ? .endStream(id: id, status: status) : .response(id: id, status: status, message: [])
        FrameEncoder.encode(frame, into: &output)
        scheduleFlushLocked()
        return entry.terminationHandlers
    }

    private func scheduleFlushLocked() {
        if closed {
            output = []
            return
        }
        guard !inBurst, !flushScheduled else { return }
        flushScheduled = true
        queue.async(execute: flush)
    }
}
