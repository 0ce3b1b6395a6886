import StreakFraming
import StreakTestSupport
import StreakWire
import Testing

/// Tokens that cannot be tokens, and many wrong ones.
@Suite struct BadTokenTests {
    @Test func malformedTokenIsUnauthenticatedAtOnce() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        for value in [String(repeating: "x", count: 60_000), "stk_short", "stk_" + String(repeating: "G", count: 64)] {
            for method in [WireMethod.getSettings, .listHabits, .buildMonthLabels] {
                let answer = try harness.connection.rawCall(method.rawValue, token: value)
                #expect(answer.status.code == .unauthenticated, "\(method) with a \(value.count)-byte token")
            }
        }
        let id = try harness.connection.sendRequest(
            WireMethod.watch.rawValue,
            message: [],
            token: String(repeating: "y", count: 60_000)
        )
        let frame = try #require(try harness.connection.readFrame())
        #expect(frame == .endStream(id: id, status: Status(.unauthenticated, "missing or invalid bearer token")))
    }

    @Test func manyDistinctWrongTokensLeaveTheRealOneWorking() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        #expect(try harness.status(.getSettings, WireGetSettingsRequest()).code == .ok)
        let connection = harness.connection
        let started = ContinuousClock.now
        var ids: [UInt32] = []
        for index in 0..<3_000 {
            let hex = String(index, radix: 16)
            let wrong = "stk_" + String(repeating: "f", count: 64 - hex.count) + hex
            ids.append(try connection.sendRequest(WireMethod.getSettings.rawValue, message: [], token: wrong))
            if ids.count == 100 {
                for id in ids { #expect(try connection.awaitResponse(id).status.code == .unauthenticated) }
                ids = []
            }
        }
        #expect(try harness.status(.getSettings, WireGetSettingsRequest()).code == .ok)
        // The operator sees the guessing with the client's address: one line per 10 s, not one
        // per guess, and never a token.
        let elapsed = ContinuousClock.now - started
        #expect(harness.server.waitForLog("refused a request for its token"), "\(harness.server.logTail)")
        let log = harness.server.log
        let lines = log.split(separator: "\n").filter { $0.contains("refused a request for its token") }
        #expect(lines.allSatisfy { $0.contains("127.0.0.1") && $0.contains("missing or invalid bearer token") })
        #expect(lines.count <= 1 + Int(elapsed / .seconds(10)), "\(lines)")
        #expect(!log.contains("stk_fff"), "a token reached the log")
    }
}
