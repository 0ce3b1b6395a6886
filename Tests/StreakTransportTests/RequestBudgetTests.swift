import Foundation
import StreakFraming
import Synchronization
import Testing

@testable import StreakTransport

@Suite("Requests in flight hold bounded bytes")
struct RequestBudgetTests {
    @Test("a client that pipelines large requests is read ahead only to the limit plus one frame")
    func oneConnectionReadsAheadToItsLimit() throws {
        let limit = 2 << 20
        let server = try RunningTransport { $0.maxRequestBytesInFlight = limit }
        let client = try server.client()
        // Sixteen requests of 1 MiB, each answered 50 ms later from another thread: without the
        // limit the server would hold all 16 MiB at once.
        let count = 16
        let frames = (1...count).map {
            FrameEncoder.encode(
                .request(
                    id: UInt32($0),
                    method: "/later",
                    metadata: [],
                    message: [UInt8](repeating: 50, count: 1 << 20)
                )
            )
        }
        let writer = Thread { for frame in frames { guard (try? client.write(frame)) != nil else { return } } }
        writer.start()
        #expect(server.waitForConnectionCount(1))
        let connection = try #require(server.transport.openConnections.first)
        let most = Atomic<Int>(0)
        let sampling = Atomic<Bool>(true)
        let sampler = Thread {
            while sampling.load(ordering: .relaxed) {
                most.max(connection.responder.requestBytesInFlight, ordering: .relaxed)
                Thread.sleep(forTimeInterval: 0.001)
            }
        }
        sampler.start()
        var answered = 0
        while answered < count, case .response(_, let status, let message)? = try client.next() {
            #expect(status.code == .ok && message.count == 1 << 20)
            answered += 1
        }
        sampling.store(false, ordering: .relaxed)
        #expect(answered == count)
        // Reading stops at the limit; the turn that passed it completed at most one more request.
        let seen = most.load(ordering: .relaxed)
        #expect(seen >= 1 << 20, "the sampler saw \(seen) bytes in flight")
        #expect(seen < limit + (1 << 20) + 1024, "\(seen) bytes in flight at once")
        #expect(waitUntil { connection.responder.requestBytesInFlight == 0 })
    }

    @Test("large requests in flight share one budget: past it a request is refused, its connection goes on")
    func allConnectionsShareOneBudget() throws {
        let server = try RunningTransport {
            $0.maxFrameSize = 256 * 1024
            $0.maxRequestBytesInFlight = 512 * 1024
            $0.maxRequestBytesInFlightTotal = 1 << 20
        }
        // The budget is the larger of the total and four frames: 1 MiB. Every connection holds
        // two requests of 200 KiB that are never answered (under its own limit), then asks a
        // small echo on the same connection.
        var clients: [TestClient] = []
        var refusals: [Status] = []
        for _ in 0..<6 {
            let client = try server.client()
            clients.append(client)
            try client.request(1, "/slow", [UInt8](repeating: 1, count: 200 * 1024))
            try client.request(2, "/slow", [UInt8](repeating: 2, count: 200 * 1024))
            try client.request(3, "/echo", [3])
            while case let frame? = try client.next() {
                if case .response(3, let status, let message) = frame {
                    #expect(status.code == .ok && message == [3], "the connection goes on after a refusal")
                    break
                }
                if case .response(_, let status, _) = frame { refusals.append(status) }
            }
            #expect(server.transport.budgetedRequestBytes <= 1 << 20)
        }
        #expect(!refusals.isEmpty, "no request was refused by the budget")
        for status in refusals {
            #expect(
                status.code == .resourceExhausted && status.message.contains("too many large requests"),
                "\(status)"
            )
        }
        // Connections that end give their shares back (reset: a closed one would wait for its
        // requests to be answered), and a large request fits again.
        for client in clients { client.reset() }
        #expect(server.waitForConnectionCount(0))
        #expect(waitUntil { server.transport.budgetedRequestBytes == 0 }, "\(server.transport.budgetedRequestBytes)")
        let large = try server.client()
        try large.request(7, "/echo", [UInt8](repeating: 9, count: 200 * 1024))
        guard case .response(7, let status, let message) = try large.next() else {
            Issue.record("no answer to the large request")
            return
        }
        #expect(status.code == .ok && message.count == 200 * 1024)
    }

    @Test("an open stream does not hold its request's bytes: large Watch requests leave the connection read")
    func openStreamsHoldNoRequestBytes() throws {
        let server = try RunningTransport { $0.maxRequestBytesInFlight = 64 * 1024 }
        let client = try server.client()
        // Three streams opened with 40 KiB requests: 120 KiB, past the limit, if they counted
        // while open. Nothing would then end them: their CANCEL frames would not be read.
        for id in UInt32(1)...3 { try client.request(id, "/watch", [UInt8](repeating: UInt8(id), count: 40 * 1024)) }
        var opened: Set<UInt32> = []
        while opened.count < 3, case .streamMessage(let id, _)? = try client.next() { opened.insert(id) }
        #expect(opened == [1, 2, 3])
        let connection = try #require(server.transport.openConnections.first)
        #expect(waitUntil { connection.responder.requestBytesInFlight == 0 })
        #expect(server.transport.budgetedRequestBytes == 0)
        try client.send(.cancel(id: 2))
        try client.request(4, "/echo", [4])
        var frames: [Frame] = []
        while frames.count < 2, let frame = try client.next() { frames.append(frame) }
        #expect(frames.contains { if case .endStream(2, let status) = $0 { status.code == .cancelled } else { false } })
        #expect(frames.contains(.response(id: 4, status: .ok, message: [4])), "\(frames)")
    }
}
