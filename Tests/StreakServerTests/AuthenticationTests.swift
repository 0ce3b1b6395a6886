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
        #expect(try connection.status(of: .listHabits, WireListHabitsRequest(), token: nil).code == .unauthenticated)
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

    @Test func usersCannotSeeOrChangeEachOthersData() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let a = try harness.createHabit("private", on: day("2024-01-01"))
        try harness.record(a.id, day("2024-01-02"))
        let add = try ServerProcess.run(["user", "add", "bob", "--data-dir", harness.server.dataDirectory.path])
        #expect(add.status == 0)
        let bob = add.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(bob.hasPrefix("stk_") && bob.count == 68 && add.output.filter { $0 == "\n" }.count == 1)
        let connection = harness.connection

        let list: WireListHabitsResponse = try connection.call(
            .listHabits,
            WireListHabitsRequest.with {
                $0.includeArchived = true
            },
            token: bob
        )
        #expect(list.habits.isEmpty)
        let dayAnswer: WireGetDayResponse = try connection.call(
            .getDay,
            WireGetDayRequest.with {
                $0.date = day("2024-01-02")
            },
            token: bob
        )
        #expect(dayAnswer.day?.completed == 0 && dayAnswer.day?.completedHabits.isEmpty == true)
        let rename = try connection.status(
            of: .renameHabit,
            WireRenameHabitRequest.with {
                $0.habitId = a.id
                $0.name = "mine now"
            },
            token: bob
        )
        #expect(rename.code == .notFound)
        let record = try connection.status(
            of: .recordCompletion,
            WireRecordCompletionRequest.with {
                $0.habitId = a.id
                $0.date = day("2024-01-03")
            },
            token: bob
        )
        #expect(record.code == .notFound)
        let archive = try connection.status(
            of: .archiveHabit,
            WireArchiveHabitRequest.with {
                $0.habitId = a.id
            },
            token: bob
        )
        #expect(archive.code == .notFound)

        let mine: WireListHabitsResponse = try harness.call(.listHabits, WireListHabitsRequest())
        #expect(mine.habits.map(\.name) == ["private"])
        let myDay: WireGetDayResponse = try harness.call(
            .getDay,
            WireGetDayRequest.with { $0.date = day("2024-01-03") }
        )
        #expect(myDay.day?.completed == 0)
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
            "--handshake-timeout", "--idle-timeout", "--log-level", "STREAKD_DATA_DIR",
        ] {
            #expect(help.output.contains(flag), "missing \(flag)")
        }
    }
}

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
