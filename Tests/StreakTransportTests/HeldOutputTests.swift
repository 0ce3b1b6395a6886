import Dispatch
import Foundation
import StreakFraming
import Testing

@testable import StreakTransport

/// What a connection holds of the server's memory, read on its loop.
struct Holding: CustomStringConvertible {
    var decoderCapacity = 0
    var unsentCapacity = 0
    var unsentPending = 0
    var heldRequestBytes = 0
    var readsPaused = false
    var outputRefused = false

    var total: Int { decoderCapacity + unsentCapacity + heldRequestBytes }
    var description: String {
        "decoder \(decoderCapacity), unsent \(unsentPending) of \(unsentCapacity), held requests \(heldRequestBytes)"
            + (outputRefused ? ", refused" : "")
    }

    init(of connection: Connection) {
        final class Box: @unchecked Sendable { var value: Holding? }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        connection.loop.execute {
            var holding = Holding()
            holding.decoderCapacity = connection.decoder.bufferCapacity
            holding.unsentCapacity = connection.unsent.capacity
            holding.unsentPending = connection.unsent.count - connection.unsentOffset
            holding.heldRequestBytes = connection.held.reduce(0) { $0 + $1.message.count }
            holding.readsPaused = connection.readsPaused
            holding.outputRefused = connection.outputRefused
            box.value = holding
            done.signal()
        }
        _ = done.wait(timeout: .now() + 5)
        self = box.value ?? Holding()
    }

    private init() {}
}

@Suite("What connections hold of the server's memory")
struct HeldOutputTests {
    @Test("a connection that once sent a large request keeps no large buffer while idle")
    func idleAfterALargeRequest() throws {
        let server = try RunningTransport()
        let client = try server.client()
        try client.request(1, "/echo", [UInt8](repeating: 3, count: 3_000_000))
        guard case .response(1, let status, let message) = try client.next() else {
            Issue.record("no answer")
            return
        }
        #expect(status.code == .ok && message.count == 3_000_000)
        guard let connection = server.transport.openConnections.first else {
            Issue.record("no connection")
            return
        }
        // Idle now: nothing more is appended, and nothing waits to be sent.
        var holding = Holding(of: connection)
        #expect(
            waitUntil {
                holding = Holding(of: connection)
                return holding.total <= 256 * 1024
            },
            "\(holding)"
        )
    }

    @Test("a client that pipelines large requests and never reads holds about the output bound plus one answer")
    func nonReaderHoldsTheBoundPlusOneAnswer() throws {
        let bound = 1 << 20
        let server = try RunningTransport { $0.maxPendingOutputBytes = bound }
        let client = try server.client()
        let frames = (1...24).map {
            FrameEncoder.encode(
                .request(id: UInt32($0), method: "/echo", metadata: [], message: [UInt8](repeating: 5, count: 1 << 20))
            )
        }
        // The writes block once the server stops reading: from another thread, ended by closing.
        let writer = Thread { for frame in frames { guard (try? client.write(frame)) != nil else { return } } }
        writer.start()
        defer { client.reset() }
        #expect(server.waitForConnectionCount(1))
        let connection = try #require(server.transport.openConnections.first)
        // Until the server stopped reading and what it holds stays the same for half a second.
        var holding = Holding(of: connection)
        var steady = 0
        let giveUp = Date().addingTimeInterval(20)
        while steady < 5 && Date() < giveUp {
            Thread.sleep(forTimeInterval: 0.1)
            let now = Holding(of: connection)
            steady = now.readsPaused && now.total == holding.total ? steady + 1 : 0
            holding = now
        }
        #expect(holding.readsPaused, "\(holding)")
        // The bound, one answer (a frame's 1 MiB), what one read turn brought of the next request
        // (256 KiB), and the slack of an array that grew.
        let answer = (1 << 20) + 64
        #expect(holding.unsentPending <= bound + answer, "\(holding)")
        #expect(holding.total <= bound + answer + 512 * 1024, "\(holding)")
    }

    @Test("output held for clients that do not read is bounded for all connections together")
    func unsentOutputIsBoundedServerWide() throws {
        let limit = 2 << 20
        let server = try RunningTransport {
            $0.maxPendingOutputBytes = 256 * 1024
            $0.maxUnsentOutputBytes = limit
        }
        // Connections pipeline 32 answers of 1 MiB each and do not read, one after the other,
        // until the budget refuses one; those before it hold their share (most of an answer each:
        // the kernel's buffers are kept small).
        var hogs: [(client: TestClient, connection: Connection)] = []
        var refused: (client: TestClient, connection: Connection)?
        for index in 0..<8 where refused == nil {
            let (client, connection) = try server.smallBufferedClient()
            for id in UInt32(1)...32 { try client.request(id, "/big") }
            // Until its output stops growing (the server stopped answering it) or it was refused.
            var holding = Holding(of: connection)
            var steady = 0
            let giveUp = Date().addingTimeInterval(10)
            while !holding.outputRefused && steady < 3 && Date() < giveUp {
                Thread.sleep(forTimeInterval: 0.1)
                let now = Holding(of: connection)
                steady = now.unsentPending == holding.unsentPending ? steady + 1 : 0
                holding = now
                #expect(server.transport.unsentOutputBytes <= limit)
            }
            if holding.outputRefused { refused = (client, connection) } else { hogs.append((client, connection)) }
            print("hog \(index): \(holding); budget in use \(server.transport.unsentOutputBytes)")
        }
        let (client, _) = try #require(refused, "no connection was refused by the output budget")
        #expect(server.transport.unsentOutputBytes <= limit)
        // The refused client reads now: its answers, then GOAWAY RESOURCE_EXHAUSTED, then the end.
        let frames = try client.remainingFrames()
        let goAways = frames.compactMap { frame -> Status? in
            guard case .goAway(_, let status) = frame else { return nil }
            return status
        }
        #expect(
            frames.contains { if case .response(_, .ok, let message) = $0 { message.count == 1 << 20 } else { false } }
        )
        #expect(goAways.count == 1 && goAways[0].code == .resourceExhausted, "\(goAways)")
        #expect(goAways.first?.message.contains("too much output that clients have not read") == true)
        // Another client is served meanwhile, a large answer included.
        let other = try server.client()
        try other.request(1, "/echo", [1, 2, 3])
        #expect(try other.next() == .response(id: 1, status: .ok, message: [1, 2, 3]))
        // The hogs that never read give their shares back when they go.
        for hog in hogs { hog.client.abandon() }
        #expect(
            waitUntil(seconds: 30) { server.transport.unsentOutputBytes == 0 },
            """
            budget in use \(server.transport.unsentOutputBytes); open: \
            \(server.transport.openConnections.map { Holding(of: $0).description })
            """
        )
        try other.request(2, "/big")
        guard case .response(2, let status, let message) = try other.next() else {
            Issue.record("no answer to /big")
            return
        }
        #expect(status.code == .ok && message.count == 1 << 20)
    }

    @Test("a refused client that does not read is closed a second later, its output dropped")
    func refusedNonReaderIsClosed() throws {
        let server = try RunningTransport {
            $0.maxPendingOutputBytes = 256 * 1024
            $0.maxUnsentOutputBytes = 1 << 20
        }
        var clients: [TestClient] = []
        for _ in 0..<6 {
            let client = try server.smallBufferedClient().client
            for id in UInt32(1)...32 { try client.request(id, "/big") }
            clients.append(client)
        }
        // Some are refused and closed; what the rest hold stays within the budget.
        #expect(
            waitUntil(seconds: 10) { server.transport.connectionCount < 6 },
            "\(server.transport.connectionCount) open"
        )
        #expect(server.transport.unsentOutputBytes <= 1 << 20)
        withExtendedLifetime(clients) {}
    }
}
