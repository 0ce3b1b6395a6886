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
    private var output: [UInt8] = []
    private var inFlight: [UInt32: Entry] = [:]
    private var nextGeneration: UInt64 = 0
    private var inBurst = false
    private var flushScheduled = false
    private var closed = false

    init(queue: DispatchQueue, flush: @escaping @Sendable () -> Void) {
        self.queue = queue
        self.flush = flush
    }

    /// Answers a unary request. Dropped when the request is no longer active.
    public func respond(to id: UInt32, status: Status, message: [UInt8]) {
        lock.lock()
        defer { lock.unlock() }
        guard inFlight.removeValue(forKey: id) != nil else { return }
        FrameEncoder.encode(.response(id: id, status: status, message: message), into: &output)
        scheduleFlushLocked()
    }

    /// Sends one message of a server-streaming call. - Returns: false when the stream is gone.
    @discardableResult
    public func sendStreamMessage(to id: UInt32, message: [UInt8]) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard inFlight[id] != nil else { return false }
        inFlight[id]?.isStream = true
        FrameEncoder.encode(.streamMessage(id: id, message: message), into: &output)
        scheduleFlushLocked()
        return true
    }

    /// Ends a server-streaming call with its final status.
    public func endStream(_ id: UInt32, status: Status) {
        lock.lock()
        defer { lock.unlock() }
        guard inFlight.removeValue(forKey: id) != nil else { return }
        FrameEncoder.encode(.endStream(id: id, status: status), into: &output)
        scheduleFlushLocked()
    }

    /// Whether `id` still waits for an answer (not answered, cancelled, expired or closed).
    public func isActive(_ id: UInt32) -> Bool {
        lock.withLock { inFlight[id] != nil }
    }

    /// Marks `id` as a stream and runs `handler` once when it ends without the handler ending it:
    /// on CANCEL, deadline, connection close or shutdown. Runs at once when `id` is already gone.
    public func onStreamTermination(_ id: UInt32, _ handler: @escaping @Sendable () -> Void) {
        let registered: Bool = lock.withLock {
            guard inFlight[id] != nil else { return false }
            inFlight[id]?.isStream = true
            inFlight[id]?.terminationHandlers.append(handler)
            return true
        }
        if !registered { handler() }
    }

    // MARK: - For the connection (on its queue)

    var inFlightCount: Int { lock.withLock { inFlight.count } }

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
        var handlers: [@Sendable () -> Void] = []
        lock.withLock {
            guard let entry = inFlight[id], generation == nil || entry.generation == generation else { return }
            inFlight[id] = nil
            handlers = entry.terminationHandlers
            let frame: Frame = entry.isStream ? .endStream(id: id, status: status) : .response(id: id, status: status, message: [])
            FrameEncoder.encode(frame, into: &output)
            scheduleFlushLocked()
        }
        for handler in handlers { handler() }
    }

    /// Ends every open stream with `status` (shutdown); unary requests keep running.
    func endAllStreams(status: Status) {
        let streams = lock.withLock { inFlight.filter(\.value.isStream).map(\.key) }
        for id in streams { terminate(id, status: status) }
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
