import Foundation
import StreakFraming
import Testing

@testable import StreakTransport

/// GOAWAY: why it is sent, what `last_request_id` says, and that it reaches the client.
@Suite("GOAWAY over loopback")
struct GoAwayTests {
    @Test("shutdown: GOAWAY names the highest request, later requests are refused, in-flight ones answered")
    func shutdown() throws {
        let server = try RunningTransport()
        let client = try server.client()
        try client.request(3, "/later", [120])
        try client.request(9, "/later", [250])
        try client.send(.ping(1))
        #expect(try client.next() == .pong(1))  // the requests before it were read
        let done = DispatchSemaphore(value: 0)
        server.transport.shutdown { done.signal() }
        #expect(
            try client.next() == .goAway(lastRequestID: 9, status: Status(.unavailable, "the server is shutting down"))
        )
        try client.request(10, "/echo", [10])
        let frames = try client.remainingFrames()
        #expect(frames.contains(.response(id: 3, status: .ok, message: [120])))
        #expect(frames.contains(.response(id: 9, status: .ok, message: [250])))
        #expect(
            frames.contains(.response(id: 10, status: Status(.unavailable, "the server is shutting down"), message: []))
        )
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(throws: TestError.self) { _ = try server.client() }
    }

    @Test("idle timeout, on a driven clock: alive until it passes, then GOAWAY UNAVAILABLE naming the last request")
    func idleTimeout() throws {
        let clock = ManualClock()
        let server = try RunningTransport {
            $0.idleTimeout = .seconds(300)
            $0.clock = clock
        }
        let client = try server.client()
        try client.request(4, "/echo", [4])
        #expect(try client.next() == .response(id: 4, status: .ok, message: [4]))
        clock.advance(by: .seconds(299))
        server.transport.sweep()
        try client.send(.ping(9))
        #expect(try client.next() == .pong(9), "not idle yet")
        clock.advance(by: .seconds(301))
        server.transport.sweep()
        let frames = try client.remainingFrames()
        #expect(frames == [.goAway(lastRequestID: 4, status: Status(.unavailable, "idle timeout"))])
        #expect(server.waitForConnectionCount(0))
    }

    @Test("steady traffic or a request in flight keeps a connection from being idle (driven clock)")
    func busyIsNotIdle() throws {
        let clock = ManualClock()
        let server = try RunningTransport {
            $0.idleTimeout = .seconds(300)
            $0.clock = clock
        }
        let waiting = try server.client()
        try waiting.request(1, "/slow")
        let chatty = try server.client()
        // Both prefaces were read (the handshake timeout does not apply) before the clock moves.
        for (client, payload) in [(waiting, UInt64(1)), (chatty, 2)] {
            try client.send(.ping(payload))
            #expect(try client.next() == .pong(payload))
        }
        // Twenty minutes of a request every minute: each sweep finds the chatty connection active
        // and the waiting one with a request in flight.
        for id in UInt32(1)...20 {
            clock.advance(by: .seconds(60))
            server.transport.sweep()
            try chatty.request(id, "/echo", [UInt8(id)])
            #expect(try chatty.next() == .response(id: id, status: .ok, message: [UInt8(id)]))
        }
        try waiting.send(.ping(5))
        #expect(try waiting.next() == .pong(5))
        try chatty.send(.ping(6))
        #expect(try chatty.next() == .pong(6))
    }

    @Test("elapsed time never wraps when activity is newer than the clock reading")
    func elapsedTimeSaturates() {
        #expect(elapsedNanoseconds(from: 100, to: 350) == 250)
        #expect(elapsedNanoseconds(from: 350, to: 100) == 0)
        #expect(elapsedNanoseconds(from: .max, to: 0) == 0)
    }

    @Test("handshake timeout: a client that never sends the preface gets GOAWAY INVALID_ARGUMENT")
    func handshakeTimeout() throws {
        let clock = ManualClock()
        let server = try RunningTransport {
            $0.handshakeTimeout = .seconds(10)
            $0.clock = clock
        }
        let client = try server.client(sendPreface: false)
        #expect(server.waitForConnectionCount(1))
        clock.advance(by: .seconds(11))
        server.transport.sweep()
        let frames = try client.remainingFrames()
        guard case .goAway(let last, let status) = frames.last else {
            Issue.record("no GOAWAY: \(frames)")
            return
        }
        #expect(last == 0)
        #expect(status.code == .invalidArgument)
        #expect(status.message.contains("preface"))
    }

    @Test(
        "a protocol error: earlier answers arrive, then GOAWAY with the last request id and the reason",
        arguments: [
            (FrameEncoder.encode(.response(id: 1, status: .ok, message: [])), "may not send"),
            ([0x00, 0x00, 0x00, 0x05, 0x7F, 0, 0, 0, 1], "kind"),
        ]
    )
    func protocolError(bad: [UInt8], reason: String) throws {
        let server = try RunningTransport()
        let client = try server.client()
        try client.request(4, "/watch", [4])
        try client.request(5, "/echo", [5])
        try client.request(6, "/later", [80])
        try client.write(bad)
        let frames = try client.remainingFrames()
        guard frames.count == 5, case .goAway(let last, let status) = frames[2] else {
            Issue.record("expected 2 answers, GOAWAY, END_STREAM and a late answer: \(frames)")
            return
        }
        #expect(frames.prefix(2) == [.streamMessage(id: 4, message: [1]), .response(id: 5, status: .ok, message: [5])])
        #expect(last == 6)
        #expect(status.code == .invalidArgument)
        #expect(status.message.localizedCaseInsensitiveContains(reason))
        #expect(frames[3] == .endStream(id: 4, status: status))
        // Request 6 was accepted before the error: it is still answered, after the GOAWAY.
        #expect(frames[4] == .response(id: 6, status: .ok, message: [80]))
    }

    @Test("lingering close: the GOAWAY is delivered even while the client keeps sending")
    func goAwaySurvivesAClientThatKeepsSending() throws {
        let server = try RunningTransport()
        let client = try server.client()
        let junk = [UInt8](repeating: 0xAB, count: 64 * 1024)
        try client.write([0x00, 0x00, 0x00, 0x01, 0x7F])
        let writerDone = DispatchSemaphore(value: 0)
        let writer = Thread {
            defer { writerDone.signal() }
            for _ in 0..<32 { guard (try? client.write(junk)) != nil else { return } }
        }
        writer.start()
        // The writer must be done before the client (and its descriptor) goes away.
        defer { writerDone.wait() }
        let frames = try client.remainingFrames()
        guard case .goAway(_, let status) = frames.last else {
            Issue.record("no GOAWAY: \(frames)")
            return
        }
        #expect(status.code == .invalidArgument)
        #expect(server.waitForConnectionCount(0))
    }
}
