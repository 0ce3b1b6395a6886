import Foundation
import StreakCore
import StreakFraming
import StreakTestSupport
import StreakWire
import Testing

/// Tokens, users and the status codes of bad requests.
@Suite struct AuthenticationTests {
    @Test func missingOrWrongTokenIsUnauthenticated() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let connection = harness.connection
        let missing = try connection.status(of: .listHabits, WireListHabitsRequest(), token: nil)
        #expect(missing.code == .unauthenticated && missing.message == "missing or invalid bearer token")
        let wrong = "stk_" + String(repeating: "0", count: 64)
        #expect(try connection.status(of: .listHabits, WireListHabitsRequest(), token: wrong).code == .unauthenticated)
        #expect(
            try connection.status(of: .buildMonthLabels, WireBuildMonthLabelsRequest(), token: nil).code
                == .unauthenticated
        )
        let malformed = try connection.rawCall(
            WireMethod.getSettings.rawValue,
            token: nil,
            metadata: [MetadataEntry(key: "authorization", value: "Basic abc")]
        )
        #expect(malformed.status.code == .unauthenticated)
        // The connection is still fine.
        #expect(try connection.status(of: .listHabits, WireListHabitsRequest(), token: harness.token).code == .ok)
    }

    @Test func userListAndRevoke() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let directory = harness.server.dataDirectory.path
        let carol = try ServerProcess.run(["user", "add", "carol", "--data-dir", directory])
            .output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try harness.connection.status(of: .listHabits, WireListHabitsRequest(), token: carol).code == .ok)
        let list = try ServerProcess.run(["user", "list", "--data-dir", directory])
        #expect(list.status == 0 && list.output.contains("local") && list.output.contains("carol"))
        let revoke = try ServerProcess.run(["user", "revoke", "carol", "--data-dir", directory])
        #expect(revoke.status == 0)
        // The server trusts a cached token for a short time; poll (bounded) until it refuses it.
        var status = Status.ok
        for _ in 0..<100 {
            status = try harness.connection.status(of: .listHabits, WireListHabitsRequest(), token: carol)
            if status.code == .unauthenticated { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(status.code == .unauthenticated)
        #expect(
            try harness.connection.status(of: .listHabits, WireListHabitsRequest(), token: harness.token).code == .ok
        )
        let unknown = try ServerProcess.run(["user", "revoke", "nobody", "--data-dir", directory])
        #expect(unknown.status != 0)
    }

    /// The server remembers the user of a connection's last token; a connection that changes
    /// tokens between requests must get each request answered as the token's own user.
    @Test("one connection alternating tokens is answered as each token's user, every time")
    func alternatingTokensOnOneConnection() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let directory = harness.server.dataDirectory.path
        let carol = try ServerProcess.run(["user", "add", "carol", "--data-dir", directory])
            .output.trimmingCharacters(in: .whitespacesAndNewlines)
        let connection = harness.connection
        _ = try harness.createHabit("local's habit", on: try CivilDate(year: 2026, month: 1, day: 1))
        let created: WireCreateHabitResponse = try connection.call(
            .createHabit,
            WireCreateHabitRequest.with { $0.name = "carol's habit" },
            token: carol
        )
        #expect(created.habit?.name == "carol's habit")
        func names(_ token: String) throws -> [String] {
            let list: WireListHabitsResponse = try connection.call(.listHabits, WireListHabitsRequest(), token: token)
            return list.habits.map(\.name)
        }
        // Carol's token with its last character changed: the same length, another token.
        let forged = String(carol.dropLast()) + (carol.hasSuffix("0") ? "1" : "0")
        for round in 0..<20 {
            #expect(try names(harness.token) == ["local's habit"], "round \(round)")
            #expect(try names(carol) == ["carol's habit"], "round \(round)")
            #expect(try names(carol) == ["carol's habit"], "round \(round), twice in a row")
            let refused = try connection.status(of: .listHabits, WireListHabitsRequest(), token: forged)
            #expect(refused.code == .unauthenticated, "round \(round)")
            let missing = try connection.status(of: .listHabits, WireListHabitsRequest(), token: nil)
            #expect(missing.code == .unauthenticated, "round \(round)")
        }
    }

    @Test func impossibleDateIsInvalidArgument() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let habit = try harness.createHabit("h", on: day("2024-01-01"))
        // RecordCompletionRequest { habit_id = id, date = { 2024, 2, 30 } }, encoded by hand.
        let date: [UInt8] = [0x08, 0xE8, 0x0F, 0x10, 0x02, 0x18, 0x1E]
        var message: [UInt8] = [0x08]
        var id = UInt64(habit.id)
        while id >= 0x80 {
            message.append(UInt8(id & 0x7F) | 0x80)
            id >>= 7
        }
        message.append(UInt8(id))
        message += [0x12, UInt8(date.count)] + date
        let answer = try harness.connection.rawCall(
            WireMethod.recordCompletion.rawValue,
            message: message,
            token: harness.token
        )
        #expect(answer.status.code == .invalidArgument)
        #expect(answer.status.message.contains("2024-02-30"))
    }

    @Test func unknownMethodIsUnimplemented() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let answer = try harness.connection.rawCall("/streak.v1.Streaks/Teleport", token: harness.token)
        #expect(answer.status.code == .unimplemented)
        let garbage = try harness.connection.rawCall(
            WireMethod.getDay.rawValue,
            message: [0xFF, 0xFF],
            token: harness.token
        )
        #expect(garbage.status.code == .invalidArgument)
    }

    @Test func helpDocumentsEveryFlag() throws {
        let help = try ServerProcess.run(["--help"])
        #expect(help.status == 0)
        for flag in [
            "--host", "--port", "--data-dir", "--max-frame-bytes", "--max-in-flight", "--max-connections",
            "--handshake-timeout", "--idle-timeout", "--shutdown-grace", "--max-pending-output-bytes",
            "--max-request-bytes-in-flight", "--event-loops", "--log-level", "--database-url", "STREAKD_DATA_DIR",
            "STREAKD_PORT", "STREAKD_HOST",
            "STREAKD_DATABASE_URL",
        ] {
            #expect(help.output.contains(flag), "missing \(flag)")
        }
    }
}
