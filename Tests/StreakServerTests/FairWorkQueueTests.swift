import Dispatch
import Foundation
import Synchronization
import Testing

@testable import StreakServer

@Suite("The slow path serves connections in turn")
struct FairWorkQueueTests {
    /// A client's identity, as a connection's responder gives one.
    final class Client: Sendable {
        var id: ObjectIdentifier { ObjectIdentifier(self) }
    }

    @Test("a client that queues many items delays another's by one item, not by all of them")
    func clientsTakeTurns() throws {
        let queue = FairWorkQueue<ObjectIdentifier>(label: "test.fair", width: 1)
        let hog = Client()
        let other = Client()
        let order = Mutex<[String]>([])
        let gate = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let hogItems: [FairWorkQueue<ObjectIdentifier>.Item] = (0..<10).map { index in
            {
                if index == 0 { gate.wait() }  // the worker is busy while the rest is queued
                order.withLock { $0.append("hog \(index)") }
                done.signal()
            }
        }
        queue.submit(hogItems, from: hog.id)
        queue.submit(
            [
                {
                    order.withLock { $0.append("other") }
                    done.signal()
                }
            ],
            from: other.id
        )
        queue.submit(
            [
                {
                    order.withLock { $0.append("hog 10") }
                    done.signal()
                }
            ],
            from: hog.id
        )
        gate.signal()
        for _ in 0..<12 { #expect(done.wait(timeout: .now() + 10) == .success) }
        let seen = order.withLock { $0 }
        #expect(seen.count == 12)
        // It waits for the item running and at most one more of the hog's (whose turn was queued
        // before it arrived), not for the other nine.
        #expect(seen.firstIndex(of: "other").map { $0 <= 2 } == true, "\(seen)")
        // The hog's own items start in the order they were queued.
        #expect(seen.filter { $0.hasPrefix("hog") } == (0...10).map { "hog \($0)" }, "\(seen)")
        withExtendedLifetime((hog, other)) {}
    }

    @Test("several clients with several items each: each item runs once")
    func everyItemRunsOnce() throws {
        let queue = FairWorkQueue<ObjectIdentifier>(label: "test.fair.many", width: 3)
        let clients = (0..<20).map { _ in Client() }
        let started = Mutex<[Int: [Int]]>([:])
        let group = DispatchGroup()
        let itemsPerClient = 50
        DispatchQueue.concurrentPerform(iterations: clients.count) { index in
            // Each client submits in bursts of five, as read bursts arrive.
            for burst in 0..<(itemsPerClient / 5) {
                let items: [FairWorkQueue<ObjectIdentifier>.Item] = (0..<5).map { offset in
                    group.enter()
                    return {
                        started.withLock { $0[index, default: []].append(burst * 5 + offset) }
                        group.leave()
                    }
                }
                queue.submit(items, from: clients[index].id)
            }
        }
        #expect(group.wait(timeout: .now() + 30) == .success)
        let seen = started.withLock { $0 }
        for index in clients.indices {
            // Items of one client may run on several workers at once, so they finish in any
            // order, but each runs exactly once.
            #expect(seen[index]?.sorted() == Array(0..<itemsPerClient), "client \(index): \(seen[index] ?? [])")
        }
        withExtendedLifetime(clients) {}
    }

    @Test("at most `width` items run at once")
    func widthBoundsConcurrency() throws {
        let queue = FairWorkQueue<ObjectIdentifier>(label: "test.fair.width", width: 2)
        let running = Atomic<Int>(0)
        let most = Atomic<Int>(0)
        let group = DispatchGroup()
        let clients = (0..<4).map { _ in Client() }
        for client in clients {
            let items: [FairWorkQueue<ObjectIdentifier>.Item] = (0..<10).map { _ in
                group.enter()
                return {
                    let now = running.add(1, ordering: .relaxed).newValue
                    most.max(now, ordering: .relaxed)
                    Thread.sleep(forTimeInterval: 0.002)
                    running.subtract(1, ordering: .relaxed)
                    group.leave()
                }
            }
            queue.submit(items, from: client.id)
        }
        #expect(group.wait(timeout: .now() + 30) == .success)
        #expect(most.load(ordering: .relaxed) <= 2)
        #expect(most.load(ordering: .relaxed) >= 1)
        withExtendedLifetime(clients) {}
    }

    @Test("one queue's busy workers never keep another queue's from starting (token checks beside costly work)")
    func queuesDoNotStarveEachOther() throws {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let costly = FairWorkQueue<ObjectIdentifier>(label: "test.fair.costly", width: 2 * cores)
        let checks = FairWorkQueue<ObjectIdentifier>(label: "test.fair.checks", width: 1)
        let client = Client()
        let checked = Atomic<Bool>(false)
        let released = Atomic<Int>(0)
        let group = DispatchGroup()
        // Every costly worker computes (spins: a thread that waits would let Dispatch add threads)
        // until the check ran, or 10 s passed: more workers than cores, all busy.
        let items: [FairWorkQueue<ObjectIdentifier>.Item] = (0..<(2 * cores)).map { _ in
            group.enter()
            return {
                let giveUp = ContinuousClock.now + .seconds(10)
                while !checked.load(ordering: .acquiring) && ContinuousClock.now < giveUp {}
                if checked.load(ordering: .acquiring) { released.add(1, ordering: .relaxed) }
                group.leave()
            }
        }
        costly.submit(items, from: client.id)
        Thread.sleep(forTimeInterval: 0.2)  // the costly workers hold their threads
        checks.submit([{ checked.store(true, ordering: .releasing) }], from: client.id)
        #expect(group.wait(timeout: .now() + 30) == .success)
        #expect(released.load(ordering: .relaxed) == 2 * cores, "the check did not run while costly work went on")
        withExtendedLifetime(client) {}
    }
}
