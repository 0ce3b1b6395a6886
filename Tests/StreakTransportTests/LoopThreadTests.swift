import Dispatch
import Foundation
import Synchronization
import Testing

@testable import StreakTransport

/// The event loop's own thread: blocks from other threads, timers, and the heap behind them.
@Suite("Event loop thread and timers")
struct LoopThreadTests {
    @Test(
        "timers come out earliest first, ties in the order they were scheduled",
        arguments: [
            ([30, 10, 20], [1, 2, 0]),
            ([5, 5, 5, 1], [3, 0, 1, 2]),
            ([100, 1, 50, 1, 75, 2], [1, 3, 5, 2, 4, 0]),
            ([7], [0]),
        ]
    )
    func timerOrder(dues: [UInt64], expected: [Int]) {
        var timers = LoopTimers()
        let fired = Mutex<[Int]>([])
        for (index, due) in dues.enumerated() {
            timers.schedule(at: due) { fired.withLock { $0.append(index) } }
        }
        // Nothing is due before the earliest time.
        #expect(timers.popDue(now: dues.min()! - 1) == nil)
        while let action = timers.popDue(now: .max) { action.fire() }
        #expect(fired.withLock { $0 } == expected)
        #expect(timers.isEmpty)
    }

    @Test("obsolete timers are dropped once the heap doubles; the others keep their order")
    func obsoleteTimersAreDropped() {
        var timers = LoopTimers()
        let fired = Fired()
        // Every tenth timer stays live; the rest are obsolete at once (answered requests).
        for index in 0..<20_000 {
            timers.schedule(at: UInt64(20_000 - index / 10), Marker(index: index, live: index % 10 == 0, fired: fired))
            #expect(timers.count <= 2 * LoopTimers.minimumSweep + 2_000)
        }
        #expect(timers.count <= 4_000)
        while let action = timers.popDue(now: .max) { action.fire() }
        // The live ones fire earliest due first; of equal dues, in the order they were scheduled.
        let expected = stride(from: 0, to: 20_000, by: 10).reversed().map { $0 }
        #expect(fired.indexes.withLock { $0 }.filter { $0 % 10 == 0 } == expected)
    }

    private final class Fired: Sendable {
        let indexes = Mutex<[Int]>([])
    }

    private struct Marker: LoopTimerAction {
        let index: Int
        let live: Bool
        let fired: Fired

        func fire() { fired.indexes.withLock { $0.append(index) } }
        var isObsolete: Bool { !live }
    }

    @Test(
        "a wait lasts until the earliest timer, rounded up to whole milliseconds",
        arguments: [
            (nil, 0, -1),
            (1_000, 1_000, 0),
            (1_000, 2_000, 0),
            (1_000_001, 1, 1),
            (1_000_002, 1, 2),
            (5_000_000, 0, 5),
            (UInt64.max, 0, Int32.max),
        ] as [(UInt64?, UInt64, Int32)]
    )
    func waitLength(due: UInt64?, now: UInt64, expected: Int32) {
        var timers = LoopTimers()
        if let due { timers.schedule(at: due) {} }
        #expect(timers.waitMilliseconds(now: now) == expected)
    }

    @Test("blocks given from many threads all run on the loop's one thread, each thread's in order")
    func blocksFromManyThreads() throws {
        let loop = try EventLoop(label: "test.loop")
        loop.start()
        defer { loop.stop() }
        let seen = Mutex<(threads: Set<UInt>, order: [Int: [Int]])>(([], [:]))
        let done = DispatchSemaphore(value: 0)
        let senders = 8
        let perSender = 500
        DispatchQueue.concurrentPerform(iterations: senders) { sender in
            for step in 0..<perSender {
                loop.execute {
                    seen.withLock {
                        $0.threads.insert(UInt(pthread_self()))
                        $0.order[sender, default: []].append(step)
                    }
                    if step == perSender - 1 { done.signal() }
                }
                // Now and then the loop falls asleep between blocks and must be woken.
                if step % 100 == 0 { usleep(2_000) }
            }
        }
        for _ in 0..<senders { #expect(done.wait(timeout: .now() + 10) == .success) }
        let (threads, order) = seen.withLock { $0 }
        #expect(threads.count == 1)
        #expect(!threads.contains(UInt(pthread_self())))
        for sender in 0..<senders { #expect(order[sender] == Array(0..<perSender)) }
    }

    @Test("a timer runs on the loop no earlier than its deadline, and in deadline order")
    func timersOnTheLoop() throws {
        let loop = try EventLoop(label: "test.timers")
        loop.start()
        defer { loop.stop() }
        let fired = Mutex<[(Int, UInt64)]>([])
        let done = DispatchSemaphore(value: 0)
        let start = DispatchTime.now()
        let delays = [40, 10, 25]
        loop.execute {
            for (index, delay) in delays.enumerated() {
                let deadline = start + .milliseconds(delay)
                loop.execute(at: deadline) {
                    fired.withLock { $0.append((index, DispatchTime.now().uptimeNanoseconds)) }
                    if index == 0 { done.signal() }
                }
            }
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        let result = fired.withLock { $0 }
        #expect(result.map(\.0) == [1, 2, 0])
        for (index, at) in result {
            #expect(at >= start.uptimeNanoseconds + UInt64(delays[index]) * 1_000_000)
        }
    }
}
