import Foundation
import Logging
import StreakFraming
import StreakTestSupport
import Testing

@testable import StreakTransport

/// A transport on an ephemeral loopback port, shut down at the end of each test.
final class RunningTransport: @unchecked Sendable {
    let transport: ServerTransport
    let port: Int

    init(handler: EchoHandler = EchoHandler(), _ configure: (inout TransportConfiguration) -> Void = { _ in }) throws {
        var configuration = TransportConfiguration()
        configuration.port = 0
        configuration.shutdownGracePeriod = .seconds(2)  // requests to /slow are never answered
        configure(&configuration)
        transport = ServerTransport(configuration: configuration, handler: handler, logger: Logger(label: "test"))
        port = try transport.start()
    }

    func client(sendPreface: Bool = true) throws -> TestClient { try TestClient(port: port, sendPreface: sendPreface) }

    /// A client whose unread output the kernel holds little of, on either end, so that what the
    /// server holds for it does not depend on how far the kernel's buffers autotuned (on loopback
    /// the server's send buffer alone grows to `tcp_wmem`'s largest, 4 MiB by default, when the
    /// machine is quiet). Returns the client and the server's side of its connection.
    func smallBufferedClient() throws -> (client: TestClient, connection: Connection) {
        let known = Set(transport.openConnections.map(ObjectIdentifier.init))
        let client = try TestClient(port: port, receiveBuffer: 16 * 1024)
        var connection: Connection?
        _ = waitUntil {
            connection = transport.openConnections.first { !known.contains(ObjectIdentifier($0)) }
            return connection != nil
        }
        guard let connection else { throw TestError("the server did not accept the connection") }
        TestSocket.setBuffer(SO_SNDBUF, of: connection.descriptor, bytes: 16 * 1024)
        return (client, connection)
    }

    /// Shuts down and waits (bounded) for completion.
    func shutdown() -> Bool {
        let done = DispatchSemaphore(value: 0)
        transport.shutdown { done.signal() }
        return done.wait(timeout: .now() + 15) == .success
    }

    /// Waits (bounded) until the transport has `count` open connections.
    func waitForConnectionCount(_ count: Int) -> Bool { waitUntil { transport.connectionCount == count } }

    deinit { _ = shutdown() }
}

@Suite("Server transport over loopback")
struct ServerTransportTests {
    @Test("the preface is answered, pings get pongs, requests get answers")
    func basics() throws {
        let server = try RunningTransport()
        let client = try server.client()
        try client.send(.ping(99))
        try client.request(1, "/echo", [1, 2, 3])
        #expect(try client.next() == .pong(99))
        #expect(try client.next() == .response(id: 1, status: .ok, message: [1, 2, 3]))
        try client.request(2, "/nope")
        guard case .response(2, let status, _) = try client.next() else {
            Issue.record("no answer")
            return
        }
        #expect(status.code == .unimplemented)
    }

    @Test("many requests in flight on one connection, answered out of order")
    func outOfOrder() throws {
        let server = try RunningTransport()
        let client = try server.client()
        var expected: Set<UInt32> = []
        for id in UInt32(1)...60 {
            try client.request(id, "/later", [UInt8(60 - id)])
            expected.insert(id)
        }
        var order: [UInt32] = []
        while order.count < 60 {
            guard case .response(let id, let status, let message) = try client.next() else { continue }
            #expect(status == .ok && message == [UInt8(60 - id)])
            order.append(id)
        }
        #expect(Set(order) == expected)
        #expect(order != order.sorted())
    }

    @Test(
        "a wrong preface gets GOAWAY INVALID_ARGUMENT and the connection closes",
        arguments: [
            "GET / HTTP/1.1\r\nHost: x\r\n\r\n", "STREAKD\u{07}", "\u{0}\u{0}\u{0}\u{5}",
        ]
    )
    func wrongPreface(text: String) throws {
        let server = try RunningTransport()
        let client = try server.client(sendPreface: false)
        try client.write(Array(text.utf8))
        let frames = try client.remainingFrames()
        guard case .goAway(_, let status) = frames.last else {
            Issue.record("no GOAWAY: \(frames)")
            return
        }
        #expect(status.code == .invalidArgument)
        #expect(status.message.contains("preface"))
    }

    @Test("an oversize frame or garbage closes that connection only", arguments: [true, false])
    func isolation(oversize: Bool) throws {
        let server = try RunningTransport { $0.maxFrameSize = 1024 }
        let good = try server.client()
        let bad = try server.client()
        try good.request(1, "/echo", [1])
        #expect(try good.next() == .response(id: 1, status: .ok, message: [1]))
        try bad.write(
            oversize ? [0x00, 0x10, 0x00, 0x00, 0x01] : [0x00, 0x00, 0x00, 0x09, 0x63, 1, 2, 3, 4, 5, 6, 7, 8]
        )
        let frames = try bad.remainingFrames()
        guard case .goAway(_, let status) = frames.last else {
            Issue.record("no GOAWAY: \(frames)")
            return
        }
        #expect(status.code == (oversize ? .resourceExhausted : .invalidArgument))
        try good.request(2, "/echo", [2])
        #expect(try good.next() == .response(id: 2, status: .ok, message: [2]))
    }

    @Test("deadlines, cancellation and bad deadline metadata are answered by the transport")
    func deadlinesAndCancel() throws {
        let server = try RunningTransport()
        let client = try server.client()
        try client.request(1, "/slow", metadata: [MetadataEntry(key: "deadline-ms", value: "50")])
        guard case .response(1, let expired, _) = try client.next() else {
            Issue.record("no answer")
            return
        }
        #expect(expired.code == .deadlineExceeded)
        try client.request(2, "/slow")
        try client.send(.cancel(id: 2))
        guard case .response(2, let cancelled, _) = try client.next() else {
            Issue.record("no answer")
            return
        }
        #expect(cancelled.code == .cancelled)
        // ASCII digits only, at most a day: no sign, space, fraction or exponent.
        for value in ["soon", "+5", "-0", "-5", " 5", "5 ", "5.0", "1e3", "", "86400001", "٣"] {
            try client.request(3, "/echo", metadata: [MetadataEntry(key: "deadline-ms", value: value)])
            guard case .response(3, let bad, _) = try client.next() else {
                Issue.record("no answer")
                return
            }
            #expect(bad.code == .invalidArgument, "\(value)")
        }
        // A stream's request refused by the transport ends with END_STREAM, its final frame.
        try client.request(3, "/watch", metadata: [MetadataEntry(key: "deadline-ms", value: "soon")])
        guard case .endStream(3, let refusedStream) = try client.next() else {
            Issue.record("no END_STREAM")
            return
        }
        #expect(refusedStream.code == .invalidArgument)
        // Up to a day, leading zeros included.
        for value in ["86400000", "086400000", "000000000001", "0"] {
            try client.request(3, "/echo", metadata: [MetadataEntry(key: "deadline-ms", value: value)])
            guard case .response(3, let accepted, _) = try client.next() else {
                Issue.record("no answer")
                return
            }
            #expect(
                accepted.code == .ok || (value == "0" && accepted.code == .deadlineExceeded),
                "\(value): \(accepted)"
            )
        }
        try client.request(4, "/watch")
        #expect(try client.next() == .streamMessage(id: 4, message: [1]))
        try client.send(.cancel(id: 4))
        guard case .endStream(4, let ended) = try client.next() else {
            Issue.record("no END_STREAM")
            return
        }
        #expect(ended.code == .cancelled)
    }

    @Test("answered requests leave no timer behind, however long their deadline", .ownThreads)
    func answeredDeadlinesAreDropped() async throws {
        let server = try RunningTransport()
        let client = try server.client()
        let day = [MetadataEntry(key: "deadline-ms", value: "86400000")]
        // 5,000 requests with a 24-hour deadline, 50 in flight, each answered at once.
        for id in 1...50 { try client.request(UInt32(id), "/echo", metadata: day) }
        for next in 51...5_050 {
            guard case .response(let id, let status, _) = try client.next() else {
                Issue.record("no answer")
                return
            }
            #expect(status.code == .ok)
            if next <= 5_000 { try client.request(id, "/echo", metadata: day) }
        }
        let timers = await server.transport.timerCounts.reduce(0, +)
        #expect(timers <= LoopTimers.minimumSweep + 50, "\(timers) timers held")
        // A deadline still pending does its work.
        try client.request(1, "/slow", metadata: [MetadataEntry(key: "deadline-ms", value: "20")])
        let frame = try client.next()
        guard case .response(1, let expired, _) = frame else {
            Issue.record("no answer to the request past its deadline: \(String(describing: frame))")
            return
        }
        #expect(expired.code == .deadlineExceeded)
    }

    @Test("a streaming request cancelled or expired before its handler opened the stream ends with END_STREAM")
    func earlyEndOfAStreamIsEndStream() throws {
        let server = try RunningTransport()
        let client = try server.client()
        try client.request(1, "/quietstream")
        try client.send(.cancel(id: 1))
        #expect(try client.next() == .endStream(id: 1, status: Status(.cancelled, "cancelled by the client")))
        try client.request(2, "/quietstream", metadata: [MetadataEntry(key: "deadline-ms", value: "0")])
        #expect(try client.next() == .endStream(id: 2, status: Status(.deadlineExceeded, "the deadline passed")))
        // A unary request ended the same ways still gets a RESPONSE.
        try client.request(3, "/slow", metadata: [MetadataEntry(key: "deadline-ms", value: "0")])
        #expect(
            try client.next() == .response(id: 3, status: Status(.deadlineExceeded, "the deadline passed"), message: [])
        )
    }

    @Test("a stream delivers its messages then its status")
    func stream() throws {
        let server = try RunningTransport()
        let client = try server.client()
        try client.request(5, "/stream")
        #expect(try client.next() == .streamMessage(id: 5, message: [0]))
        #expect(try client.next() == .streamMessage(id: 5, message: [1]))
        #expect(try client.next() == .streamMessage(id: 5, message: [2]))
        #expect(try client.next() == .endStream(id: 5, status: .ok))
    }

    @Test("requests over the in-flight limit get RESOURCE_EXHAUSTED (a stream as END_STREAM); the connection stays")
    func inFlightLimit() throws {
        let server = try RunningTransport { $0.maxInFlightPerConnection = 2 }
        let client = try server.client()
        try client.request(1, "/slow")
        try client.request(2, "/slow")
        try client.request(3, "/slow")
        guard case .response(3, let limited, _) = try client.next() else {
            Issue.record("no answer")
            return
        }
        #expect(limited.code == .resourceExhausted)
        try client.request(4, "/watch")
        guard case .endStream(4, let limitedStream) = try client.next() else {
            Issue.record("no END_STREAM")
            return
        }
        #expect(limitedStream.code == .resourceExhausted)
    }

    @Test("a reused in-flight id is a connection error: GOAWAY, the first request's one answer, close")
    func reusedIDEndsTheConnection() throws {
        let server = try RunningTransport()
        let client = try server.client()
        try client.request(1, "/later", [200])
        try client.request(1, "/later", [1])
        guard case .goAway(1, let status) = try client.next() else {
            Issue.record("no GOAWAY")
            return
        }
        #expect(status.code == .invalidArgument)
        guard case .response(1, let answer, _) = try client.next() else {
            Issue.record("no answer to the first request")
            return
        }
        #expect(answer.code == .ok)
        #expect(try client.next() == nil, "the connection stayed open")
    }

    @Test("a client that does not read stops being read, and gets its answers once it does (backpressure)")
    func backpressure() throws {
        let server = try RunningTransport { $0.maxPendingOutputBytes = 256 * 1024 }
        let client = try server.client()
        for id in UInt32(1)...32 { try client.request(id, "/big") }
        // 32 MiB of answers wait: the server must stop reading this connection. Without that it
        // would read (and echo) everything, and these writes would never block.
        // Echoes with ids of their own (an id in flight must not be reused), all of one size.
        func echoFrame(_ index: Int) -> [UInt8] {
            FrameEncoder.encode(
                .request(
                    id: UInt32(100 + index),
                    method: "/echo",
                    metadata: [],
                    message: [UInt8](repeating: 1, count: 4096)
                )
            )
        }
        let frameSize = echoFrame(0).count
        var echo = echoFrame(0)
        // Bytes, not frames: a partial send is normal whenever the client is ahead for a moment.
        var sent = 0
        var blocked = false
        var stalled = false
        while !blocked && sent < 64 << 20 {
            let offset = sent % frameSize
            if offset == 0 { echo = echoFrame(sent / frameSize) }
            let count = echo.withUnsafeBytes {
                send(client.descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if count > 0 {
                sent += count
                stalled = false
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                // Nothing went out: give the server half a second to read, in case it still does.
                blocked = stalled
                stalled = true
                Thread.sleep(forTimeInterval: 0.5)
            } else {
                Issue.record("send failed: errno \(errno)")
                return
            }
        }
        // The rest of a frame cut in the middle goes out once the server reads again.
        if sent % frameSize != 0 {
            let rest = Array(echo[(sent % frameSize)...])
            Thread { try? client.write(rest) }.start()
        }
        let echoFrames = (sent + frameSize - 1) / frameSize
        #expect(blocked, "the server kept reading: \(sent) bytes accepted while 32 MiB waited")
        #expect(sent < 32 << 20)
        // Reading drains the answers; reads resume and the echoes are answered too.
        var answered = 0
        var echoes = 0
        while answered < 32 || echoes < echoFrames {
            guard case .response(let id, let status, let message) = try client.next() else { continue }
            if id >= 100 {
                echoes += 1
            } else {
                #expect(status == .ok && message.count == 1 << 20)
                answered += 1
            }
        }
    }

    @Test("shutdown sends GOAWAY, answers what is in flight and completes")
    func gracefulShutdown() throws {
        let server = try RunningTransport()
        let client = try server.client()
        try client.request(7, "/later", [200])
        try client.request(8, "/watch")
        #expect(try client.next() == .streamMessage(id: 8, message: [1]))
        let done = DispatchSemaphore(value: 0)
        server.transport.shutdown { done.signal() }
        let frames = try client.remainingFrames()
        #expect(frames.contains(.goAway(lastRequestID: 8, status: Status(.unavailable, "the server is shutting down"))))
        #expect(frames.contains(.response(id: 7, status: .ok, message: [200])))
        #expect(
            frames.contains { if case .endStream(8, let status) = $0 { status.code == .unavailable } else { false } }
        )
        #expect(done.wait(timeout: .now() + 10) == .success)
    }

    @Test("a thousand connections each get an answer")
    func thousandConnections() throws {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = limit.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        try #require(limit.rlim_cur >= 2200, "needs 2,200 descriptors")
        let server = try RunningTransport()
        var clients: [TestClient] = []
        for index in 0..<1000 {
            let client = try server.client()
            try client.request(1, "/echo", [UInt8(index % 256)])
            clients.append(client)
        }
        for (index, client) in clients.enumerated() {
            #expect(try client.next() == .response(id: 1, status: .ok, message: [UInt8(index % 256)]))
        }
        #expect(server.transport.connectionCount == 1000)
    }
}
