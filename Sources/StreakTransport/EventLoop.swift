internal import CEventPoll
import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A group of connections whose sockets reach Dispatch through one read source.
///
/// Each connection's socket is registered (level-triggered) in the loop's own epoll instance,
/// and one Dispatch read source watches that instance. When any socket is ready, one handler on
/// the loop's serial queue collects every ready connection and serves each inline: read,
/// answer, send. A read and a write source per connection would cost a re-arm (`epoll_ctl`
/// on Dispatch's manager thread, often with a thread wake-up) for every request; here the
/// source is re-armed once per batch, and a connection's registration changes only when it
/// starts or stops waiting to write or pauses its reads.
///
/// Everything but `init` and `start()` runs on `queue`, which is also the queue of every
/// connection in the loop.
final class EventLoop: @unchecked Sendable {
    /// What a connection waits for (`read`, `write`), or what a wait found (also `hangUp`).
    struct Events: OptionSet, Equatable {
        let rawValue: UInt32
        static let read = Events(rawValue: UInt32(STREAK_POLL_READ))
        static let write = Events(rawValue: UInt32(STREAK_POLL_WRITE))
        /// Reported only: the peer hung up or the socket failed.
        static let hangUp = Events(rawValue: UInt32(STREAK_POLL_HANGUP))
    }

    /// The serial queue of the loop and of its connections.
    let queue: DispatchQueue
    /// One read buffer for the loop's connections: only one of them reads at a time.
    let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    private let poll: Int32
    private var source: (any DispatchSourceRead)?
    private var members: [UInt64: Connection] = [:]
    private var nextToken: UInt64 = 0
    private let capacity = 64
    private let readyTokens: UnsafeMutablePointer<UInt64>
    private let readyBits: UnsafeMutablePointer<UInt32>

    /// - Throws: `TransportError` when the kernel refuses an epoll instance.
    init(label: String) throws {
        poll = streak_poll_create()
        guard poll >= 0 else {
            throw TransportError(description: "epoll_create1 failed: \(String(cString: strerror(errno)))")
        }
        queue = DispatchQueue(label: label, qos: .userInitiated)
        readyTokens = .allocate(capacity: capacity)
        readyBits = .allocate(capacity: capacity)
    }

    deinit {
        readBuffer.deallocate()
        readyTokens.deallocate()
        readyBits.deallocate()
    }

    /// Starts watching. Call once.
    func start() {
        let source = DispatchSource.makeReadSource(fileDescriptor: poll, queue: queue)
        source.setEventHandler { [weak self] in self?.serveReady() }
        let poll = self.poll
        source.setCancelHandler { Glibc.close(poll) }
        self.source = source
        source.activate()
    }

    /// Stops watching and releases the epoll instance; call once every connection closed.
    func stop() {
        queue.async { [self] in
            source?.cancel()
            source = nil
            members = [:]
        }
    }

    /// Registers `connection`'s socket. - Returns: its token, or nil when the kernel refused it.
    func add(_ connection: Connection, interest: Events) -> UInt64? {
        nextToken &+= 1
        guard streak_poll_add(poll, connection.descriptor, interest.rawValue, nextToken) == 0 else { return nil }
        members[nextToken] = connection
        return nextToken
    }

    /// Changes what the connection registered under `token` waits for.
    func update(_ connection: Connection, token: UInt64, interest: Events) {
        _ = streak_poll_modify(poll, connection.descriptor, interest.rawValue, token)
    }

    /// Forgets the connection registered under `token`; its socket may be closed afterwards.
    func remove(_ connection: Connection, token: UInt64) {
        _ = streak_poll_remove(poll, connection.descriptor)
        members[token] = nil
    }

    /// Serves every ready connection, a bounded number of batches at a time so that blocks
    /// queued for the loop (answers from other threads, timers) are not starved; what is left
    /// keeps the epoll instance readable, so the source fires again.
    private func serveReady() {
        for _ in 0..<4 {
            let count = Int(streak_poll_ready(poll, readyTokens, readyBits, Int32(capacity)))
            guard count > 0 else { return }
            for index in 0..<count {
                // A token whose connection closed earlier in this batch finds nothing.
                members[readyTokens[index]]?.serve(ready: Events(rawValue: readyBits[index]))
            }
            if count < capacity { return }
        }
    }
}
