internal import CEventPoll
import Dispatch
import FoundationEssentials
import StreakPOSIX
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Something that runs blocks one at a time, in the order they were given: an event loop, or
/// a serial Dispatch queue (tests). Both are classes: a reference to one is two words, not five.
protocol LoopExecutor: AnyObject, Sendable {
    /// Runs `block` after the blocks already given; callable from any thread.
    func execute(_ block: @escaping @Sendable () -> Void)
}

extension DispatchQueue: LoopExecutor {
    func execute(_ block: @escaping @Sendable () -> Void) { async(execute: block) }
}

/// A group of connections served by one thread of its own that waits in `epoll_wait`.
///
/// Each connection's socket is registered (level-triggered) in the loop's epoll instance. The
/// loop's thread waits there itself, and when sockets are ready serves up to 64 of them inline:
/// read, answer, send. Blocks given from other threads (answers computed elsewhere, the
/// sweeper's checks) wait in a mailbox and run on the loop's thread between waits; the first
/// block given while the thread waits signals an eventfd registered with the others, so a block
/// costs a wake-up only when the loop sleeps.
///
/// Behind a Dispatch read source on the epoll descriptor instead, every batch of ready sockets
/// cost a wake-up of Dispatch's manager thread, a second one of a worker and a re-arm of the
/// source (docs/PERFORMANCE-LOG.md, "Event loops on threads of their own").
///
/// Everything but `init`, `start()`, `execute(_:)` and `stop()` runs on the loop's thread, which
/// is also the thread of every connection in the loop.
final class EventLoop: LoopExecutor, @unchecked Sendable {
    /// What a connection waits for (`read`, `write`), or what a wait found (also `hangUp`).
    struct Events: OptionSet, Equatable {
        let rawValue: UInt32
        static let read = Events(rawValue: UInt32(STREAK_POLL_READ))
        static let write = Events(rawValue: UInt32(STREAK_POLL_WRITE))
        /// Reported only: the peer hung up or the socket failed.
        static let hangUp = Events(rawValue: UInt32(STREAK_POLL_HANGUP))
    }

    /// Blocks given from any thread, and whether the loop's thread waits (and must be woken).
    private struct Mailbox {
        var blocks: [@Sendable () -> Void] = []
        var waiting = false
    }

    /// One read buffer for the loop's connections: only one of them reads at a time.
    let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    private let label: String
    private let poll: Int32
    private let wake: Int32
    private let mailbox = Mutex(Mailbox())
    private var members: [UInt64: Connection] = [:]
    private var timers = LoopTimers()
    private var nextToken: UInt64 = 0
    private var stopping = false
    /// The loop's thread, once it runs (checked by `execute(at:)` in debug builds).
    private var loopThread: pthread_t?
    private let capacity = 64
    private let readyTokens: UnsafeMutablePointer<UInt64>
    private let readyBits: UnsafeMutablePointer<UInt32>
    /// The token of the wake-up eventfd; connections get 1, 2, ...
    private static let wakeToken: UInt64 = 0

    /// - Throws: `TransportError` when the kernel refuses an epoll instance or an eventfd.
    init(label: String) throws {
        poll = streak_poll_create()
        guard poll >= 0 else {
            throw TransportError(description: "epoll_create1 failed: \(String(cString: strerror(errno)))")
        }
        wake = streak_wake_create()
        guard wake >= 0, streak_poll_add(poll, wake, UInt32(STREAK_POLL_READ), Self.wakeToken) == 0 else {
            let reason = String(cString: strerror(errno))
            if wake >= 0 { Glibc.close(wake) }
            Glibc.close(poll)
            throw TransportError(description: "the event loop's eventfd failed: \(reason)")
        }
        self.label = label
        readyTokens = .allocate(capacity: capacity)
        readyBits = .allocate(capacity: capacity)
    }

    deinit {
        Glibc.close(wake)
        Glibc.close(poll)
        readBuffer.deallocate()
        readyTokens.deallocate()
        readyBits.deallocate()
    }

    /// Starts the loop's thread. Call once.
    func start() {
        NamedThread.start(name: label) { [self] in run() }
    }

    /// Ends the loop's thread once the blocks given before have run; call once every connection
    /// closed.
    func stop() {
        execute { [self] in
            stopping = true
            members = [:]
        }
    }

    /// Runs `block` on the loop's thread after the blocks already given; from any thread.
    func execute(_ block: @escaping @Sendable () -> Void) {
        let wakeNeeded = mailbox.withLock { mailbox -> Bool in
            mailbox.blocks.append(block)
            guard mailbox.waiting else { return false }
            mailbox.waiting = false
            return true
        }
        if wakeNeeded { streak_wake_signal(wake) }
    }

    /// Runs `block` on the loop's thread once `deadline` passed; on the loop's thread.
    func execute(at deadline: DispatchTime, _ block: @escaping @Sendable () -> Void) {
        execute(at: deadline, BlockTimer(block: block))
    }

    /// Fires `action` on the loop's thread once `deadline` passed, unless it became obsolete
    /// meanwhile (it may then be dropped earlier); on the loop's thread.
    func execute(at deadline: DispatchTime, _ action: some LoopTimerAction) {
        assert(loopThread.map { pthread_equal($0, pthread_self()) != 0 } == true, "a timer set off the loop's thread")
        timers.schedule(at: deadline.uptimeNanoseconds, action)
    }

    /// How many timers the loop holds (tests: obsolete ones are dropped).
    var timerCount: Int {
        get async { await withCheckedContinuation { done in execute { done.resume(returning: self.timers.count) } } }
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

    /// The loop: the blocks given, the timers due, then one wait for ready sockets (not waiting
    /// at all when blocks arrived meanwhile) and each of them served.
    private func run() {
        loopThread = pthread_self()
        var blocks: [@Sendable () -> Void] = []
        while !stopping {
            mailbox.withLock { swap(&$0.blocks, &blocks) }
            for block in blocks { block() }
            blocks.removeAll(keepingCapacity: true)
            runDueTimers()
            guard !stopping else { break }
            let waits = mailbox.withLock { mailbox -> Bool in
                mailbox.waiting = mailbox.blocks.isEmpty
                return mailbox.waiting
            }
            var timeout: Int32 = waits ? -1 : 0
            if waits && !timers.isEmpty { timeout = timers.waitMilliseconds(now: DispatchTime.now().uptimeNanoseconds) }
            let count = Int(streak_poll_wait(poll, readyTokens, readyBits, Int32(capacity), timeout))
            if waits { mailbox.withLock { $0.waiting = false } }
            for index in 0..<count {
                let token = readyTokens[index]
                if token == Self.wakeToken {
                    streak_wake_drain(wake)
                } else {
                    // A token whose connection closed earlier in this batch finds nothing.
                    members[token]?.serve(ready: Events(rawValue: readyBits[index]))
                }
            }
        }
    }

    private func runDueTimers() {
        guard !timers.isEmpty else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        while let action = timers.popDue(now: now) { action.fire() }
    }
}
