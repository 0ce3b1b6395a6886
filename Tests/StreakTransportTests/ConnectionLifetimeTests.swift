import Foundation
import StreakFraming
import Testing

@testable import StreakTransport

@Suite("Connection lifetime")
struct ConnectionLifetimeTests {
    /// Holds a connection without keeping it alive.
    final class WeakConnection {
        weak var connection: Connection?
        init(_ connection: Connection) { self.connection = connection }
    }

    @Test(
        "a closed connection is released, whatever it had in flight",
        arguments: ["reset", "closed"]
    )
    func closedConnectionsAreReleased(ending: String) throws {
        let server = try RunningTransport()
        var clients: [TestClient] = []
        for _ in 0..<8 {
            let client = try server.client()
            // Answered inline, answered from another thread (the flush block's path), a stream
            // left open and a request never answered.
            try client.request(1, "/echo", [1])
            try client.request(2, "/later", [5])
            try client.request(3, "/watch")
            try client.request(4, "/slow")
            var answered: Set<UInt32> = []
            while answered.count < 3, let frame = try client.next() {
                switch frame {
                case .response(let id, _, _), .streamMessage(let id, _): answered.insert(id)
                default: break
                }
            }
            #expect(answered == [1, 2, 3])
            clients.append(client)
        }
        #expect(server.waitForConnectionCount(8))
        let held = server.transport.openConnections.map(WeakConnection.init)
        #expect(held.count == 8)
        for client in clients { ending == "reset" ? client.reset() : client.abandon() }
        #expect(server.waitForConnectionCount(0))
        // Blocks already queued on the loop may hold a connection for a moment, not longer.
        #expect(waitUntil { held.allSatisfy { $0.connection == nil } }, "closed connections still in memory")
    }
}
