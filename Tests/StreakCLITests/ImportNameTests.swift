import StreakCLI
import StreakCore
import StreakWire
import Testing

/// Habit names with control characters: a JSON export stops before anything is sent, Loop's
/// names become single spaces with a note, and the counts never take a refused habit for a match.
@Suite("habit names an import cannot send as they are")
struct ImportNameTests {
    static func export(name: String) -> [UInt8] {
        let escaped = name.unicodeScalars.map { scalar in
            scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
                ? "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
                : String(scalar)
        }.joined()
        return Array(
            "{\"format\": \"streakd-export\", \"version\": 1,\n\"habits\": [{\"name\": \"Read\"},\n{\"name\": \"\(escaped)\", \"completions\": [\"2025-06-01\"]}]}"
                .utf8
        )
    }

    @Test(arguments: [
        ("Morning\trun", "U+0009"), ("Morning\nrun", "U+000A"), ("Line\r\nbreak", "U+000D"), ("nul\u{0}", "U+0000"),
        ("del\u{7F}", "U+007F"), ("next\u{85}line", "U+0085"),
    ])
    func aJSONNameWithAControlCharacterStopsTheImport(name: String, code: String) {
        #expect {
            _ = try ExportFormat.decode(Self.export(name: name), file: "export.json")
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("export.json:3: habits[1].name: a habit name may not contain control characters")
                && text.contains(code)
        }
    }

    @Test func aJSONNameWithoutControlCharactersIsRead() throws {
        let archive = try ExportFormat.decode(Self.export(name: "Café – 読書 ✓"), file: "export.json")
        #expect(archive.habits.map(\.name) == ["Read", "Café – 読書 ✓"])
    }

    @Test(arguments: [
        ("Morning\nrun", "Morning run"), ("Morning\r\nrun", "Morning run"), ("Morning \n run", "Morning run"),
        ("Tab\tbed", "Tab bed"), ("\nLeading and trailing\n", "Leading and trailing"), ("a\u{0}\u{7}b", "a b"),
        ("Two  spaces\tkept", "Two  spaces kept"),
    ])
    func loopNamesWithControlCharactersBecomeSingleSpaces(loopName: String, expected: String) throws {
        var export = LoopExportFixture()
        export.set(
            "Habits.csv",
            [
                LoopExportFixture.habitsHeader, LoopExportFixture.yesNo("001", loopName),
                LoopExportFixture.yesNo("002", "Read"),
            ]
        )
        export.set(
            "001 Morning run/Checkmarks.csv",
            [LoopExportFixture.checkmarksHeader, ["2024-04-30", "YES_MANUAL", ""]]
        )
        let archive = try LoopArchiveReader.read(files: export.files, name: "x", today: LoopExportFixture.today)
        #expect(archive.habits.map(\.name) == [expected, "Read"])
        #expect(archive.habits.first?.completions == [LoopExportFixture.date("2024-04-30")])
        #expect(archive.habits.allSatisfy { HabitName.problem($0.name) == nil })
        #expect(
            archive.notes.contains(
                "\(expected) (Habits.csv line 2): its line breaks, tabs or other control characters became spaces "
                    + "(Streakd's habit names have none)"
            ),
            "\(archive.notes)"
        )
    }

    @Test func aLoopNameOfControlCharactersAloneIsBlank() {
        var export = LoopExportFixture()
        export.set("Habits.csv", [LoopExportFixture.habitsHeader, LoopExportFixture.yesNo("001", "\n\t")])
        #expect {
            _ = try LoopArchiveReader.read(files: export.files, name: "x", today: LoopExportFixture.today)
        } throws: { error in
            "\(error)".hasPrefix("Habits.csv:2: Name: the name is blank")
        }
    }

    @Test func aPlanRefusesAHabitTheServerWouldRefuse() {
        var incoming = ImportArchive()
        incoming.habits = [
            HabitHistory(name: "Read", completions: [LoopExportFixture.date("2025-06-01")]),
            HabitHistory(name: "Bad\tname", completions: [LoopExportFixture.date("2025-06-01")]),
        ]
        let plan = ImportPlan(incoming: incoming, current: ImportArchive(), today: LoopExportFixture.date("2025-06-15"))
        #expect(plan.created == ["Read"])
        #expect(plan.matched == 0)
        #expect(plan.refusedHabits == ["Bad\tname"])
        #expect(plan.refused == 1)
        #expect(plan.completions == 1)
    }

    @Test func aRefusedHabitIsNotCountedAsMatched() {
        var archive = ImportArchive()
        archive.habits = [HabitHistory(name: "Read"), HabitHistory(name: "Bad")]
        let batches = archive.batches()
        var tally = ImportTally(habitCount: 2)
        var response = WireImportDataResponse()
        response.habitsCreated = 1
        response.errors = [WireImportRecordError(habitIndex: 1, field: "name", message: "refused")]
        tally.add(response, batch: batches[0])
        #expect(tally.created == 1)
        #expect(tally.matched == 0)
        #expect(tally.refusedHabits == [1])
        #expect(
            tally.summary
                == "imported: 1 habit created, 0 matched, 1 refused; 0 completions, 0 skips, 0 rest periods added; "
                + "settings unchanged\n1 record was refused (listed on standard error)\n"
        )
    }

    @Test func refusalsTheServerCountedButDidNotListAreSaid() {
        var archive = ImportArchive()
        let days = (1...3).map { LoopExportFixture.date("2025-06-0\($0)") }
        archive.habits = [HabitHistory(name: "Read"), HabitHistory(name: "Past the limit", completions: days)]
        let batches = archive.batches()
        var tally = ImportTally(habitCount: 2)
        var response = WireImportDataResponse()
        response.habitsCreated = 1
        // 1,500 refused: the first 1,000 listed (all completions of "Read"); the habit past the
        // limit is only in the count, and its empty entry in `habits`.
        response.errors = (0..<1000).map {
            WireImportRecordError(habitIndex: 0, field: "completions", message: "refused \($0)")
        }
        response.errorCount = 1500
        response.habits = [WireHabit(id: 7, name: "Read"), WireHabit()]
        tally.add(response, batch: batches[0])
        #expect(tally.refusedCount == 1500 && tally.omitted == 500 && tally.errorLines.count == 1000)
        #expect(tally.refusedHabits == [1] && tally.matched == 0)
        #expect(
            tally.summary
                == "imported: 1 habit created, 0 matched, 1 refused; 0 completions, 0 skips, 0 rest periods added; "
                + "settings unchanged\n1500 records were refused; the server listed 1000 (on standard error) "
                + "and counted 500 more\n3 completions and skips of the refused habit were not imported\n"
        )
        #expect(tally.recordsOfRefusedHabits == 3)
        guard case .object(let fields) = tally.json else {
            Issue.record("not an object")
            return
        }
        #expect(fields.first { $0.0 == "refused_count" }?.1 == .int(1500))
    }

    @Test func aHabitSplitOverSeveralRequestsIsCreatedOnce() {
        var archive = ImportArchive()
        let days = (1...5).map { LoopExportFixture.date("2025-06-0\($0)") }
        archive.habits = [HabitHistory(name: "Read", completions: days), HabitHistory(name: "Run")]
        let batches = archive.batches(maxRecords: 2)
        #expect(batches.map(\.habitIndexes) == [[0], [0], [0, 1]])
        var tally = ImportTally(habitCount: 2)
        for (number, batch) in batches.enumerated() {
            var response = WireImportDataResponse()
            response.habitsCreated = number == 0 ? 1 : 0
            response.habitsMatched = Int32(number == 0 ? 0 : 1)
            tally.add(response, batch: batch)
        }
        #expect(tally.created == 1)
        #expect(tally.matched == 1)
    }
}
