import Foundation
import StreakFraming
import Testing

@testable import StreakTransport

/// Connections share event loops: each loop serves its connections one at a time, so these
/// check that loops keep connections apart and notice sockets they no longer read.
@Suite("Event loops over loopback")
struct EventLoopTests {
    @Test("every connection is served, whatever the number of loops", arguments: [1, 3])
    func connectionsShareLoops(loops: Int) throws {
        let server = try RunningTransport { $0.eventLoops = loops }
        let clients = try (0..<10).map { _ in try server.client() }
        // Interleaved: answers from other threads and inline answers, on every connection at once.
        for (index, client) in clients.enumerated() {
            try client.request(1, "/later", [UInt8(20 + index)])
            try client.request(2, "/echo", [UInt8(index)])
        }
        for (index, client) in clients.enumerated() {
            var answers: [UInt32: [UInt8]] = [:]
            while answers.count < 2 {
                guard case .response(let id, let status, let message) = try client.next() else { continue }
                #expect(status == .ok)
                answers[id] = message
            }
            #expect(answers == [1: [UInt8(20 + index)], 2: [UInt8(index)]])
        }
        #expect(server.waitForConnectionCount(10))
        // Shutdown drains the connections of every loop: each gets GOAWAY, then its socket closes.
        #expect(server.shutdown())
        for client in clients {
            var sawGoAway = false
            while let frame = try client.next() {
                if case .goAway(_, let status) = frame, status.code == .unavailable { sawGoAway = true }
            }
            #expect(sawGoAway)
        }
        #expect(server.transport.connectionCount == 0)
    }

    @Test("a connection that waits on a big answer does not hold up the others of its loop")
    func slowReaderDoesNotBlockItsLoop() throws {
        let server = try RunningTransport { $0.eventLoops = 1 }
        let stalled = try server.client()
        for id in UInt32(1)...8 { try stalled.request(id, "/big") }  // 8 MiB that nobody reads
        let other = try server.client()
        for id in UInt32(1)...50 {
            try other.request(id, "/echo", [UInt8(id)])
            #expect(try other.next() == .response(id: id, status: .ok, message: [UInt8(id)]))
        }
        #expect(server.waitForConnectionCount(2))
    }

    @Test("a client reset while its reads are paused is noticed: the connection closes at once")
    func resetWhileReadsArePaused() throws {
        let server = try RunningTransport()
        let victim = try server.client()
        try victim.request(1, "/slow")  // never answered
        // A client may not send responses: GOAWAY, reads stop, and /slow keeps the connection open.
        try victim.send(.response(id: 9, status: .ok, message: []))
        guard case .goAway(_, let status) = try victim.next() else {
            Issue.record("no GOAWAY")
            return
        }
        #expect(status.code == .invalidArgument)
        #expect(server.waitForConnectionCount(1))
        victim.reset()
        // Nothing is read from this socket any more, yet its hang-up must still close it.
        #expect(server.waitForConnectionCount(0))
        let next = try server.client()
        try next.send(.ping(5))
        #expect(try next.next() == .pong(5))
    }
}
