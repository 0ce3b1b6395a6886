import Foundation
import StreakCore
import StreakFraming
import StreakTestSupport
import StreakWire
import Testing

/// ExportData, ImportData, DeleteHabit and UnarchiveHabit against the real binary.
@Suite struct DataMethodTests {
    @Test func exportPagesCarryEveryRecordOnceAndEndWithLast() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let first = try harness.createHabit("a", on: day("2024-01-01"))
        let second = try harness.createHabit("b", on: day("2024-01-01"))
        for offset in 0..<5 {
            try harness.record(first.id, try day("2024-01-01").adding(days: offset))
            try harness.record(second.id, try day("2024-01-01").adding(days: offset * 2))
        }
        let connection = try harness.server.connect()
        let id = try connection.sendRequest(
            WireMethod.exportData.rawValue,
            message: WireExportDataRequest(pageSize: 3).serializedBytes(),
            token: harness.token
        )
        var pages: [WireExportDataPage] = []
        while let frame = try connection.readFrame() {
            if case .streamMessage(let streamID, let bytes) = frame {
                #expect(streamID == id)
                pages.append(try WireExportDataPage(serializedBytes: bytes))
            } else if case .endStream(let streamID, let status) = frame {
                #expect(streamID == id && status.code == .ok)
                break
            }
        }
        #expect(pages.count == 4)  // 10 records, 3 a page
        #expect(pages.first?.habits.map(\.name) == ["a", "b"] && pages.first?.totalRecords == 10)
        #expect(pages.dropFirst().allSatisfy { $0.habits.isEmpty && $0.settings == nil })
        #expect(pages.map(\.last) == [false, false, false, true])
        let all = pages.flatMap(\.completions)
        #expect(all.count == 10 && Set(all.map { "\($0.habitId)@\($0.date!)" }).count == 10)
        #expect(all.map(\.habitId) == all.map(\.habitId).sorted())

        // A page size out of range ends the stream at once.
        let refusedID = try connection.sendRequest(
            WireMethod.exportData.rawValue,
            message: WireExportDataRequest(pageSize: 70_000).serializedBytes(),
            token: harness.token
        )
        guard case .endStream(let endID, let status) = try #require(try connection.readFrame()) else {
            Issue.record("expected END_STREAM")
            return
        }
        #expect(endID == refusedID && status.code == .invalidArgument)
    }

    @Test func deleteRemovesTheHistoryDurablyAndTellsWatchers() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let habit = try harness.createHabit("gone", on: day("2024-01-01"))
        try harness.record(habit.id, day("2024-01-02"))
        try harness.record(habit.id, day("2024-01-03"))
        let watch = try harness.server.connect()
        _ = try watch.status(of: .getSettings, WireGetSettingsRequest(), token: harness.token)
        _ = try watch.sendRequest(
            WireMethod.watch.rawValue,
            message: WireWatchRequest().serializedBytes(),
            token: harness.token
        )
        _ = try watch.status(of: .ping, WirePingRequest(), token: nil)

        let deleted: WireDeleteHabitResponse = try harness.call(.deleteHabit, WireDeleteHabitRequest(habitId: habit.id))
        #expect(deleted.habit?.name == "gone" && deleted.completions == 2)
        // One event for every day the habit was active on, from its first day through today.
        let now: WireGetStreakResponse = try harness.call(.getStreak, WireGetStreakRequest())
        let today = try #require(now.streak?.asOf)
        let ping = try watch.sendRequest(WireMethod.ping.rawValue, message: [], token: nil)
        var days: [CivilDate] = []
        var frame = try #require(try watch.readFrame())
        while case .streamMessage(_, let bytes) = frame {
            let event = try WireWatchEvent(serializedBytes: bytes)
            #expect(event.day?.completed == 0 && event.day?.active == 0)
            days.append(try #require(event.day?.date))
            frame = try #require(try watch.readFrame())
        }
        #expect(frame.isResponseFrame(id: ping))
        #expect(days.first == day("2024-01-01") && days.last == today)
        #expect(days.count == today.dayNumber - day("2024-01-01").dayNumber + 1)
        let list: WireListHabitsResponse = try harness.call(.listHabits, WireListHabitsRequest(includeArchived: true))
        #expect(list.habits.isEmpty)
        let again = try harness.connection.status(
            of: .deleteHabit,
            WireDeleteHabitRequest(habitId: habit.id),
            token: harness.token
        )
        #expect(again.code == .notFound)
    }

    @Test func unarchiveAndImportTwiceChangesNothing() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let habit = try harness.createHabit("kept", on: day("2024-01-01"))
        let live = try harness.connection.status(
            of: .unarchiveHabit,
            WireUnarchiveHabitRequest(habitId: habit.id),
            token: harness.token
        )
        #expect(live.code == .failedPrecondition && live.message.contains("not archived"))
        let _: WireArchiveHabitResponse = try harness.call(
            .archiveHabit,
            WireArchiveHabitRequest(habitId: habit.id, archivedOn: day("2024-02-01"))
        )
        let back: WireUnarchiveHabitResponse = try harness.call(
            .unarchiveHabit,
            WireUnarchiveHabitRequest(habitId: habit.id)
        )
        #expect(back.habit?.archivedOn == nil)

        let request = WireImportDataRequest(
            habits: [
                WireImportHabit(name: "kept", completions: [day("2023-12-31"), day("2024-01-05")]),
                WireImportHabit(name: "new", createdOn: day("2024-01-01"), completions: [day("2024-01-02")]),
                WireImportHabit(name: "   "),
            ],
            restPeriods: [WireRestPeriod(from: day("2024-03-01"), to: day("2024-03-02"), note: "x")]
        )
        let first: WireImportDataResponse = try harness.call(.importData, request)
        #expect(first.habitsCreated == 1 && first.habitsMatched == 1 && first.completionsAdded == 2)
        #expect(first.restPeriodsAdded == 1)
        #expect(first.errors.map(\.field).sorted() == ["completions", "name"])
        #expect(first.habits.map(\.name) == ["kept", "new", ""])
        let second: WireImportDataResponse = try harness.call(.importData, request)
        #expect(second.habitsCreated == 0 && second.habitsMatched == 2 && second.completionsAdded == 0)
        #expect(second.restPeriodsAdded == 0)
    }

    @Test func habitsImportedArchivedWithoutAFirstDayStartOnTheirArchiveDay() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let request = WireImportDataRequest(
            habits: [
                WireImportHabit(name: "no records", archivedOn: day("2025-06-15")),
                WireImportHabit(name: "later record", archivedOn: day("2024-01-01"), completions: [day("2024-03-01")]),
                WireImportHabit(
                    name: "earlier record",
                    archivedOn: day("2024-01-01"),
                    completions: [day("2023-12-30")]
                ),
            ]
        )
        let answer: WireImportDataResponse = try harness.call(.importData, request)
        #expect(answer.errors.isEmpty, "\(answer.errors)")
        #expect(answer.habitsCreated == 3 && answer.completionsAdded == 2)
        #expect(answer.habits.map(\.createdOn) == [day("2025-06-15"), day("2024-01-01"), day("2023-12-30")])
        #expect(answer.habits.map(\.archivedOn) == [day("2025-06-15"), day("2024-01-01"), day("2024-01-01")])
    }

    @Test func importErrorRecordsComeInRequestOrder() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let request = WireImportDataRequest.with {
            $0.habits = [
                WireImportHabit.with { $0.name = "" },
                WireImportHabit.with {
                    $0.name = "Read"
                    $0.createdOn = day("2024-01-10")
                    $0.schedule = [WireScheduleEntry.with { $0.effectiveFrom = day("2024-01-10") }]
                    $0.completions = [day("2024-01-12"), day("2024-01-05")]
                },
            ]
            $0.restPeriods = [
                WireRestPeriod.with {
                    $0.from = day("2024-03-05")
                    $0.to = day("2024-03-01")
                }
            ]
            $0.settings = WireSettings.with { $0.timeZone = "Nowhere/Nope" }
        }
        let answer: WireImportDataResponse = try harness.call(.importData, request)
        // Refused before the store (schedule, rest period, settings) and by it (name, completion):
        // one list in the request's order, messages without a status code.
        #expect(answer.errors.map(\.habitIndex) == [0, 1, 1, -1, -1])
        #expect(answer.errors.map(\.field) == ["name", "schedule", "completions", "rest_periods", "settings"])
        #expect(answer.errors[2].date == day("2024-01-05") && answer.completionsAdded == 1)
        #expect(answer.errors.allSatisfy { !$0.message.isEmpty && !$0.message.hasPrefix("INVALID_ARGUMENT") })
        #expect(
            answer.errors[3].message == "rest_periods: a rest period ends (2024-03-01) before it starts (2024-03-05)"
        )
    }

    /// A rest period's note is checked whole with the request (`RestPeriodNote`), so a control
    /// character is refused like a long note: an error record naming the field.
    @Test func importRefusesANoteWithAControlCharacterBeforeTheStore() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let notes = ["tab\there", String(repeating: "n", count: 201), "fine"]
        let request = WireImportDataRequest.with {
            $0.restPeriods = notes.enumerated().map { index, note in
                WireRestPeriod(from: day("2024-03-0\(index + 1)"), to: day("2024-03-0\(index + 1)"), note: note)
            }
        }
        let answer: WireImportDataResponse = try harness.call(.importData, request)
        #expect(answer.restPeriodsAdded == 1)
        #expect(answer.errors.map(\.field) == ["rest_periods", "rest_periods"])
        #expect(
            answer.errors.map(\.message) == notes.prefix(2).map { "rest_periods: \(RestPeriodNote.problem($0) ?? "")" }
        )
    }

    @Test func deletedIdsAreNotHandedOutAgain() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        _ = try harness.createHabit("first", on: day("2024-01-01"))
        let newest = try harness.createHabit("newest", on: day("2024-01-01"))
        let _: WireDeleteHabitResponse = try harness.call(.deleteHabit, WireDeleteHabitRequest(habitId: newest.id))
        let next = try harness.createHabit("next", on: day("2024-01-01"))
        #expect(next.id > newest.id)

        func addRest() throws -> Int64 {
            let added: WireAddRestPeriodResponse = try harness.call(
                .addRestPeriod,
                WireAddRestPeriodRequest.with {
                    $0.from = day("2024-02-01")
                    $0.to = day("2024-02-02")
                }
            )
            return try #require(added.restPeriod?.id)
        }
        let rest = try addRest()
        let _: WireRemoveRestPeriodResponse = try harness.call(
            .removeRestPeriod,
            WireRemoveRestPeriodRequest.with { $0.id = rest }
        )
        #expect(try addRest() > rest)
    }
}
