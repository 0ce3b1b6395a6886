import Foundation
import StreakFraming
import Testing

@testable import StreakTransport

/// The per-turn budget (`maxReadBytesPerTurn`, `maxFramesPerTurn`, `maxWriteBytesPerTurn`): what a
/// spent budget leaves waits for the connection's next turn and is never lost.
@Suite("Per-turn budgets")
struct TurnBudgetTests {
    /// One frame, one 64 KiB read and 1000 bytes written per turn: everything still arrives.
    static func tiny(_ configuration: inout TransportConfiguration) {
        configuration.maxFramesPerTurn = 1
        configuration.maxReadBytesPerTurn = 1
        configuration.maxWriteBytesPerTurn = 1000
    }

    static func message(_ id: UInt32) -> [UInt8] { (0..<5000).map { UInt8(truncatingIfNeeded: Int(id) &* 31 &+ $0) } }

    @Test("tiny budgets: 100 pipelined requests and a ping, sent at once, are all answered intact")
    func pipelinedUnderTinyBudgets() throws {
        let server = try RunningTransport(Self.tiny)
        let client = try server.client()
        var bytes: [UInt8] = []
        for id in UInt32(1)...100 {
            FrameEncoder.encode(
                .request(id: id, method: "/echo", metadata: [], message: Self.message(id)),
                into: &bytes
            )
        }
        FrameEncoder.encode(.ping(7), into: &bytes)
        try client.write(bytes)
        var answered: Set<UInt32> = []
        var ponged = false
        while answered.count < 100 || !ponged {
            switch try client.next() {
            case .response(let id, let status, let message):
                #expect(status.code == .ok && message == Self.message(id), "request \(id)")
                answered.insert(id)
            case .pong(let payload):
                #expect(payload == 7)
                ponged = true
            case let other:
                Issue.record("unexpected \(String(describing: other))")
                return
            }
        }
        #expect(answered == Set(1...100))
    }

    @Test("tiny budgets: requests sent just before a half-close are answered before the close")
    func halfCloseWithFramesLeft() throws {
        let server = try RunningTransport(Self.tiny)
        let client = try server.client()
        var bytes: [UInt8] = []
        for id in UInt32(1)...50 {
            FrameEncoder.encode(
                .request(id: id, method: "/echo", metadata: [], message: Self.message(id)),
                into: &bytes
            )
        }
        try client.write(bytes)
        client.finishSending()
        let frames = try client.remainingFrames()
        let ids = frames.compactMap { frame -> UInt32? in
            if case .response(let id, .ok, let message) = frame, message == Self.message(id) { return id }
            return nil
        }
        #expect(Set(ids) == Set(1...50), "\(frames.count) frames")
    }

    @Test("a client that pipelines 1 MiB answers does not hold back another's small requests")
    func bigAnswersDoNotStarveAnother() throws {
        let server = try RunningTransport { $0.eventLoops = 1 }
        let hog = try server.client()
        let other = try server.client()
        var bytes: [UInt8] = []
        for id in UInt32(1)...64 {
            FrameEncoder.encode(.request(id: id, method: "/big", metadata: [], message: []), into: &bytes)
        }
        try hog.write(bytes)
        // The hog reads everything, so its 64 MiB of answers keep the loop busy meanwhile.
        let hogDone = DispatchSemaphore(value: 0)
        Thread {
            var answers = 0
            while answers < 64, let frame = try? hog.next() {
                if case .response = frame { answers += 1 }
            }
            hogDone.signal()
        }.start()
        for id in UInt32(1)...20 {
            try other.request(id, "/echo", [UInt8(id)])
            #expect(try other.next() == .response(id: id, status: .ok, message: [UInt8(id)]))
        }
        #expect(hogDone.wait(timeout: .now() + 60) == .success, "the hog's answers did not all arrive")
    }
}
