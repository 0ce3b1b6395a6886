import Foundation
import StreakFraming
import Synchronization
import Testing

@testable import StreakTransport

/// Remembers the messages of the streams whose termination handlers ran.
final class TerminationRecorder: Sendable {
    private let ended = Mutex<[[UInt8]]>([])

    var handler: EchoHandler { EchoHandler { [self] message in ended.withLock { $0.append(message) } } }
    var count: Int { ended.withLock { $0.count } }
    func contains(_ message: [UInt8]) -> Bool { ended.withLock { $0.contains(message) } }

}

/// Clients that vanish: the server cleans up after them and everyone else carries on.
@Suite("Broken connections over loopback")
struct BrokenConnectionTests {
    @Test("a client reset with a request and a stream open: the stream ends, the others carry on")
    func resetWithStreamOpen() throws {
        let recorder = TerminationRecorder()
        let server = try RunningTransport(handler: recorder.handler)
        let other = try server.client()
        try other.request(1, "/echo", [1])
        #expect(try other.next() == .response(id: 1, status: .ok, message: [1]))

        let victim = try server.client()
        try victim.request(1, "/slow")
        try victim.request(2, "/watch", [42])
        #expect(try victim.next() == .streamMessage(id: 2, message: [1]))
        victim.reset()

        #expect(waitUntil { recorder.contains([42]) })
        #expect(server.waitForConnectionCount(1))
        try other.request(2, "/later", [20])
        #expect(try other.next() == .response(id: 2, status: .ok, message: [20]))
    }

    @Test("a client that closes without reading 32 MiB of answers does not disturb the server")
    func closesWithoutReading() throws {
        let server = try RunningTransport()
        let other = try server.client()
        let victim = try server.client()
        for id in UInt32(1)...32 { try victim.request(id, "/big") }
        // The server is answering (its first 1 MiB answer arrived); the other 31 MiB are what it holds.
        guard case .response = try victim.next() else {
            Issue.record("no first answer")
            return
        }
        victim.abandon()
        #expect(server.waitForConnectionCount(1))
        try other.request(7, "/big")
        guard case .response(7, let status, let message) = try other.next() else {
            Issue.record("no answer")
            return
        }
        #expect(status == .ok && message.count == 1 << 20)
    }

    @Test("a client that stops in the middle of a frame is closed and forgotten", arguments: [false, true])
    func endsInsideAFrame(reset: Bool) throws {
        let server = try RunningTransport()
        let victim = try server.client()
        try victim.write([0x00, 0x00, 0x00, 0x64, 0x01, 1, 2, 3, 4, 5])
        #expect(server.waitForConnectionCount(1))
        if reset { victim.reset() } else { victim.abandon() }
        #expect(server.waitForConnectionCount(0))
        let next = try server.client()
        try next.send(.ping(1))
        #expect(try next.next() == .pong(1))
    }

    @Test("a half-closed client gets the answers to what it sent; its streams end CANCELLED")
    func halfClosed() throws {
        let recorder = TerminationRecorder()
        let server = try RunningTransport(handler: recorder.handler)
        let client = try server.client()
        try client.request(1, "/later", [100])
        try client.request(2, "/echo", [2])
        try client.request(3, "/watch", [3])
        client.finishSending()
        let frames = try client.remainingFrames()
        #expect(frames.contains(.response(id: 1, status: .ok, message: [100])))
        #expect(frames.contains(.response(id: 2, status: .ok, message: [2])))
        #expect(
            frames.contains { if case .endStream(3, let status) = $0 { status.code == .cancelled } else { false } }
        )
        #expect(waitUntil { recorder.contains([3]) })
        #expect(server.waitForConnectionCount(0))
    }

    @Test("a hundred watchers vanishing at once: every stream ends and the server still answers")
    func manyVanish() throws {
        let recorder = TerminationRecorder()
        // A client that closed with a FIN looks half-closed: its unanswered /slow request keeps the
        // connection until the idle timeout; one that reset is closed at once.
        let server = try RunningTransport(handler: recorder.handler) { $0.idleTimeout = .milliseconds(500) }
        var clients: [TestClient] = []
        for index in 0..<100 {
            let client = try server.client()
            try client.request(1, "/watch", [UInt8(index)])
            try client.request(2, "/slow")
            clients.append(client)
        }
        for client in clients { #expect(try client.next() == .streamMessage(id: 1, message: [1])) }
        for (index, client) in clients.enumerated() {
            if index.isMultiple(of: 2) { client.reset() } else { client.abandon() }
        }
        #expect(waitUntil { recorder.count == 100 })
        #expect(server.waitForConnectionCount(0))
        let survivor = try server.client()
        try survivor.request(1, "/echo", [9])
        #expect(try survivor.next() == .response(id: 1, status: .ok, message: [9]))
    }
}
