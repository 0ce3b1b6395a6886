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
    }
}
