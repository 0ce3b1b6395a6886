import Foundation
import StreakCore
import StreakFraming
import StreakTestSupport
import StreakWire
import Testing

/// Answers that must fit in the 4 MiB frame whatever the user sent: ImportData's (the first 1,000
/// error records and their count) and those that list every habit (the per-user habit limit).
/// The two imports are the protocol auditor's, which used to be applied and answered RESOURCE_EXHAUSTED.
@Suite struct AnswerBoundsTests {
    /// A 200-scalar name of 4-byte scalars (800 UTF-8 bytes), distinct per `number`: its digits as
    /// mathematical bold digits, then faces.
    static func longName(_ number: Int) -> String {
        var scalars = String(number).unicodeScalars.map { Unicode.Scalar(0x1D7CE + ($0.value - 0x30))! }
        scalars += Array(repeating: Unicode.Scalar(0x1F600)!, count: 200 - scalars.count)
        var name = ""
        name.unicodeScalars.append(contentsOf: scalars)
        return name
    }

    /// The whole export, page by page (`pageSize` records a page; 0: the server's default).
    static func export(_ harness: ServerHarness, pageSize: Int32 = 0) throws -> [WireExportDataPage] {
        let id = try harness.connection.sendRequest(
            WireMethod.exportData.rawValue,
            message: WireExportDataRequest(pageSize: pageSize).serializedBytes(),
            token: harness.token
        )
        var pages: [WireExportDataPage] = []
        while let frame = try harness.connection.readFrame() {
            if case .streamMessage(id, let bytes) = frame {
                pages.append(try WireExportDataPage(serializedBytes: bytes))
            } else if case .endStream(id, let status) = frame {
                #expect(status.code == .ok, "\(status)")
                break
            }
        }
        return pages
    }

    @Test func anImportOf70000RefusedRecordsIsAnsweredOKWithTheFirst1000() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let first = day("2000-01-01")
        let before = try (1...70_000).map { try first.adding(days: -$0) }
        let valid = try (0..<300).map { try first.adding(days: $0) }
        let request = WireImportDataRequest(
            habits: [WireImportHabit(name: "Read", createdOn: first, completions: valid + before)]
        )
        #expect(request.serializedBytes().count > 600_000)
        let answer: WireImportDataResponse = try harness.call(.importData, request)
        #expect(answer.completionsAdded == 300 && answer.habitsCreated == 1)
        #expect(answer.errorCount == 70_000 && answer.errors.count == 1000)
        // The first 1,000 in request order: by date, the earliest first.
        let earliest = before.sorted()
        #expect(answer.errors.map(\.date) == earliest.prefix(1000).map { $0 })
        #expect(answer.errors.allSatisfy { $0.field == "completions" && $0.habitIndex == 0 })
        #expect(answer.serializedBytes().count < 100_000)

        // Written: the habit and its 300 completions, nothing else; again: nothing more, the same count.
        let pages = try Self.export(harness)
        #expect(pages.first?.habits.map(\.name) == ["Read"] && pages.first?.totalRecords == 300)
        let again: WireImportDataResponse = try harness.call(.importData, request)
        #expect(again.completionsAdded == 0 && again.habitsMatched == 1 && again.errorCount == 70_000)
    }

    @Test func anImportOf5000LongNamedHabitsCreatesTheFirst1000AndListsThemInAFrame() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let names = (0..<5000).map(Self.longName)
        #expect(names.allSatisfy { $0.unicodeScalars.count == 200 && $0.utf8.count == 800 })
        let request = WireImportDataRequest(
            habits: names.map { WireImportHabit(name: $0, createdOn: day("2024-01-01")) }
        )
        #expect(request.serializedBytes().count > 4_000_000)
        let answer: WireImportDataResponse = try harness.call(.importData, request)
        #expect(answer.habitsCreated == 1000 && answer.errorCount == 4000 && answer.errors.count == 1000)
        #expect(answer.errors.map(\.habitIndex) == Array(1000..<2000))
        #expect(answer.errors.allSatisfy { $0.field == "name" && $0.message.contains("at most 1000 habits") })
        #expect(answer.habits.prefix(1000).map(\.name) == Array(names.prefix(1000)))
        #expect(answer.habits.dropFirst(1000).allSatisfy { $0 == WireHabit() })

        // What was written is what the answer said, and every list of the habits fits in a frame.
        let listed: WireListHabitsResponse = try harness.call(.listHabits, WireListHabitsRequest(includeArchived: true))
        #expect(listed.habits.map(\.id) == answer.habits.prefix(1000).map(\.id))
        #expect(listed.serializedBytes().count > 800_000)
        let pages = try Self.export(harness)
        #expect(pages.first?.habits.count == 1000 && pages.last?.last == true)
        let detail: WireGetDayResponse = try harness.call(.getDay, WireGetDayRequest(date: day("2024-01-02")))
        #expect(detail.day?.openHabits.count == 1000)

        // CreateHabit at the limit, archived habits included: RESOURCE_EXHAUSTED naming the limit.
        let first = try #require(listed.habits.first)
        let _: WireArchiveHabitResponse = try harness.call(
            .archiveHabit,
            WireArchiveHabitRequest(habitId: first.id, archivedOn: day("2024-02-01"))
        )
        let refused = try harness.status(.createHabit, WireCreateHabitRequest(name: "one more"))
        #expect(refused.code == .resourceExhausted)
        #expect(
            refused.message
                == "a user may have at most 1000 habits, archived ones included (this one has 1000): "
                + "delete one (DeleteHabit) to make room"
        )

        // Again: the same 1,000 matched, the same 4,000 refused; then a delete makes room for one.
        let again: WireImportDataResponse = try harness.call(.importData, request)
        #expect(again.habitsCreated == 0 && again.habitsMatched == 1000 && again.errorCount == 4000)
        let _: WireDeleteHabitResponse = try harness.call(.deleteHabit, WireDeleteHabitRequest(habitId: first.id))
        let created: WireCreateHabitResponse = try harness.call(.createHabit, WireCreateHabitRequest(name: "one more"))
        #expect(created.habit?.name == "one more")
    }

    @Test func anErrorMessageThatQuotesTheRequestIsCut() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let zone = String(repeating: "Ä", count: 100_000)
        let answer: WireImportDataResponse = try harness.call(
            .importData,
            WireImportDataRequest(settings: WireSettings(timeZone: zone))
        )
        let message = try #require(answer.errors.first?.message)
        #expect(
            answer.errorCount == 1 && message.utf8.count <= 1024 && message.hasSuffix("..."),
            "\(message.prefix(80))"
        )
        #expect(message.hasPrefix("unknown time zone ÄÄ"))
    }
}
