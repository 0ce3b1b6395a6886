import Foundation
import StreakFraming
import Testing

@testable import StreakTransport

@Suite("Unfinished frames share one budget")
struct InputBudgetTests {
    /// The first `count` bytes of a request frame whose message is `size` bytes.
    static func unfinishedFrame(id: UInt32, size: Int, sending count: Int) -> [UInt8] {
        Array(
            FrameEncoder.encode(
                .request(id: id, method: "/echo", metadata: [], message: [UInt8](repeating: 1, count: size))
            ).prefix(count)
        )
    }

    @Test("connections that never finish large frames are refused past the budget; small requests go on")
    func unfinishedFramesAreBounded() throws {
        let server = try RunningTransport {
            $0.maxFrameSize = 256 * 1024
            $0.maxUnfinishedInputBytes = 1024 * 1024
        }
        // Each holds 200 KiB of a 250 KiB frame: 136 KiB of the budget past its 64 KiB allowance,
        // so seven fit in 1 MiB and the eighth and later are refused.
        let share = 200 * 1024 - ByteBudget.inputAllowance
        var holders: [TestClient] = []
        for id in 1...12 {
            let client = try server.client()
            try client.write(Self.unfinishedFrame(id: UInt32(id), size: 250 * 1024, sending: 200 * 1024))
            holders.append(client)
        }
        #expect(
            waitUntil(seconds: 30) { server.transport.connectionCount == 7 },
            "\(server.transport.connectionCount) open"
        )
        // The seven may still be reading what their clients wrote (a turn reads at most 256 KiB,
        // and the kernel may hand it over in pieces): CI once saw 898,048 of the 974,848 bytes.
        #expect(
            waitUntil(seconds: 30) { server.transport.unfinishedInputBytes == 7 * share },
            "\(server.transport.unfinishedInputBytes) bytes held, not \(7 * share)"
        )
        guard case .goAway(_, let refused) = try holders[11].next() else {
            Issue.record("the twelfth holder was not refused")
            return
        }
        #expect(refused.code == .resourceExhausted && refused.message.contains("unfinished large frames"), "\(refused)")
        // A small request on a new connection is still served.
        let small = try server.client()
        try small.request(99, "/echo", [1, 2, 3])
        #expect(try small.next() == .response(id: 99, status: .ok, message: [1, 2, 3]))
        // Closed holders give their share back: a large request fits again.
        for holder in holders { holder.abandon() }
        #expect(server.waitForConnectionCount(1))
        #expect(waitUntil { server.transport.unfinishedInputBytes == 0 })
        let large = try server.client()
        try large.request(7, "/echo", [UInt8](repeating: 2, count: 250 * 1024))
        guard case .response(7, let status, let message) = try large.next() else {
            Issue.record("no answer to the large request")
            return
        }
        #expect(status.code == .ok && message.count == 250 * 1024)
    }
}
