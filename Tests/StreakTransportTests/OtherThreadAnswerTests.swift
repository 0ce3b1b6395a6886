import Dispatch
import Foundation
import StreakFraming
import Synchronization
import Testing

@testable import StreakTransport

/// Answers given on another thread, the way the storage writer answers a batch of durable writes
/// after COMMIT: complete, in the order they were given per connection, never delivered to a
/// later connection that got a closed one's descriptor, and all given before a shutdown closes.
/// (Written for the direct send from the answering thread that was tried and did not pay,
/// docs/PERFORMANCE-LOG.md; a mutation that let such a send pass the loop's output failed all three.)
@Suite("Answers given on another thread")
struct OtherThreadAnswerTests {
    static func message(_ id: UInt32) -> [UInt8] { (0..<24).map { UInt8(truncatingIfNeeded: Int(id) &* 7 &+ $0) } }

    /// Eight connections pipeline answers from the serial queue (a 1 MiB one now and then, which
    /// the socket does not take at once) between inline echoes: every answer arrives intact, and
    /// the serial queue's answers in the order they were given.
    @Test("pipelined answers from another thread, between inline ones, arrive complete and in order")
    func pipelinedOnSeveralConnections() throws {
        let server = try RunningTransport()
        let clients = try (0..<8).map { _ in try server.client() }
        let rounds: UInt32 = 120  // under maxInFlightPerConnection (128)
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: clients.count) { index in
            let client = clients[index]
            var bytes: [UInt8] = []
            for id in UInt32(1)...rounds {
                let method = id % 3 == 0 ? "/echo" : id % 50 == 1 ? "/serialbig" : "/serial"
                FrameEncoder.encode(
                    .request(id: id, method: method, metadata: [], message: Self.message(id)),
                    into: &bytes
                )
                if id % 25 == 0 || id == rounds {
                    // In pieces, so that answers from the queue go out while the loop reads.
                    do { try client.write(bytes) } catch { failures.withLock { $0.append("\(error)") } }
                    bytes = []
                }
            }
            var serialOrder: [UInt32] = []
            var answered = 0
            while answered < Int(rounds) {
                do {
                    guard case .response(let id, let status, let message) = try client.next() else {
                        failures.withLock { $0.append("connection \(index): not a response") }
                        return
                    }
                    answered += 1
                    let expected =
                        id % 50 == 1 && id % 3 != 0
                        ? [UInt8](repeating: Self.message(id)[0], count: 1 << 20) : Self.message(id)
                    if status.code != .ok || message != expected {
                        failures.withLock {
                            $0.append("connection \(index): answer \(id) wrong: \(status) \(message.count)")
                        }
                    }
                    if id % 3 != 0 { serialOrder.append(id) }
                } catch {
                    failures.withLock { $0.append("connection \(index): \(error)") }
                    return
                }
            }
            if serialOrder != serialOrder.sorted() {
                failures.withLock { $0.append("connection \(index): queue answers out of order") }
            }
        }
        #expect(failures.withLock { $0 } == [])
    }

    /// Clients that reset with answers still being given, while new connections (which may get
    /// their descriptors) are opened: the new ones get only their own answers.
    @Test("clients closing mid-batch: no answer reaches a later connection on a reused descriptor")
    func closingMidBatch() throws {
        let server = try RunningTransport()
        for round in 0..<20 {
            var doomed: [TestClient] = []
            for _ in 0..<4 {
                let client = try server.client()
                var bytes: [UInt8] = []
                for id in UInt32(1)...120 {
                    FrameEncoder.encode(
                        .request(id: id, method: "/serial", metadata: [], message: [9, 9]),
                        into: &bytes
                    )
                }
                try client.write(bytes)
                doomed.append(client)
            }
            if round % 2 == 0 { Thread.sleep(forTimeInterval: 0.001) }
            for client in doomed { client.reset() }
            let fresh = try (0..<4).map { _ in try server.client() }
            for client in fresh {
                for id in UInt32(1_001)...1_020 { try client.request(id, "/serial", Self.message(id)) }
            }
            for client in fresh {
                for id in UInt32(1_001)...1_020 {
                    guard case .response(let got, .ok, let message) = try client.next() else {
                        Issue.record("round \(round): not a response")
                        return
                    }
                    #expect(got == id && message == Self.message(id), "round \(round)")
                }
            }
        }
    }

    /// Shutdown while answers still come from another thread: every request the GOAWAY accepted
    /// is answered OK, every later one refused, then the connection closes.
    @Test("shutdown with answers still coming from another thread answers them, then closes")
    func shutdownWhileAnswering() throws {
        let server = try RunningTransport()
        let client = try server.client()
        var bytes: [UInt8] = []
        for id in UInt32(1)...50 {
            FrameEncoder.encode(
                .request(id: id, method: "/later", metadata: [], message: [UInt8(1 + id % 20)]),
                into: &bytes
            )
        }
        try client.write(bytes)
        guard case .response(let first, .ok, _) = try client.next() else {
            Issue.record("the first frame is not an answer")
            return
        }
        let done = DispatchSemaphore(value: 0)
        server.transport.shutdown { done.signal() }
        var last: UInt32?
        var statuses: [UInt32: Status.Code] = [first: .ok]
        for frame in try client.remainingFrames() {
            switch frame {
            case .goAway(let lastRequestID, _): last = lastRequestID
            case .response(let id, let status, _):
                #expect(statuses.updateValue(status.code, forKey: id) == nil, "request \(id) answered twice")
            default: Issue.record("unexpected \(frame)")
            }
        }
        #expect(Set(statuses.keys) == Set(1...50))
        let accepted = statuses.filter { $0.key <= (last ?? 0) }
        #expect(last != nil && accepted.allSatisfy { $0.value == .ok }, "GOAWAY after \(String(describing: last))")
        #expect(done.wait(timeout: .now() + 15) == .success)
    }
}
