import Foundation
import StreakCLI
import StreakCore
import Testing

@Suite("Loop Habit Tracker's CSV export")
struct LoopArchiveReaderTests {
    typealias Fixture = LoopExportFixture

    static let today = Fixture.today

    static func date(_ text: String) -> CivilDate { Fixture.date(text) }

    @Test func readsTheFilesOfAModernExport() throws {
        let archive = try LoopArchiveReader.read(files: Fixture.modern.files, name: "export", today: Self.today)
        #expect(archive.habits == Fixture.modernArchive.habits)
        #expect(archive.notes == Fixture.modernArchive.notes)
        #expect(archive.settings == nil)
        #expect(archive.restPeriods.isEmpty)
    }

    @Test func readsTheZipArchive() throws {
        let bytes = Fixture.modern.zip()
        let archive = try LoopArchiveReader.read(zip: bytes, name: "Loop Habits CSV 2024-05-01.zip", today: Self.today)
        #expect(archive == Fixture.modernArchive)
    }

    @Test func readsTheZipArchiveFromDisk() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("loop-zip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("Loop Habits CSV 2024-05-01.zip").path
        try Data(Fixture.modern.zip()).write(to: URL(fileURLWithPath: path))
        #expect(try LoopArchiveReader.read(contentsOf: path, today: Self.today) == Fixture.modernArchive)
    }

    @Test func readsTheUnpackedFolder() throws {
        let folder = try Fixture.modern.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try LoopArchiveReader.read(contentsOf: folder, today: Self.today) == Fixture.modernArchive)
        // The Habits.csv in it names the folder too.
        #expect(
            try LoopArchiveReader.read(contentsOf: folder + "/Habits.csv", today: Self.today) == Fixture.modernArchive
        )
    }

    @Test func readsAnExportInAFolderOfItsOwn() throws {
        var nested = LoopExportFixture()
        for (path, bytes) in Fixture.modern.files {
            nested.files["Loop Habits CSV 2024-05-01/" + path] = bytes
        }
        nested.files["__MACOSX/Loop Habits CSV 2024-05-01/._Habits.csv"] = [0, 5, 22, 7]
        #expect(
            try LoopArchiveReader.read(zip: nested.zip(), name: "re-zipped.zip", today: Self.today)
                == Fixture.modernArchive
        )
        let folder = try nested.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try LoopArchiveReader.read(contentsOf: folder, today: Self.today) == Fixture.modernArchive)
    }

    @Test func acceptsABOMAndCRLF() throws {
        var export = Fixture.modern
        for (path, bytes) in export.files where path.hasSuffix(".csv") {
            let crlf = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\n", with: "\r\n")
            export.files[path] = [0xEF, 0xBB, 0xBF] + Array(crlf.utf8)
        }
        let archive = try LoopArchiveReader.read(files: export.files, name: "export", today: Self.today)
        #expect(archive == Fixture.modernArchive)
    }

    // MARK: - Older versions

    /// The Java versions (Loop 1.x): Habits.csv without Question or Type; Checkmarks.csv without a header, one
    /// row a day from the first check to the export day, 2 checked, 1 implicitly, 0 unchecked.
    @Test func readsAJavaEraExport() throws {
        var export = LoopExportFixture()
        export.set(
            "Habits.csv",
            [
                ["Position", "Name", "Description", "NumRepetitions", "Interval", "Color"],
                ["001", "Wake up early", "Before 6", "2", "3", "#00897B"],
                ["002", "Push-ups", "", "1", "1", "#FF8F00"],
            ]
        )
        export.set("001 Wake up early/Checkmarks.csv", text: "2015-01-25,2\n2015-01-24,0\n2015-01-23,1\n2015-01-22,2\n")
        // A measurable habit's values are thousandths; this export does not say it is measurable.
        export.set("002 Push-ups/Checkmarks.csv", text: "2015-01-25,15000\n2015-01-24,0\n2015-01-23,2\n")
        let archive = try LoopArchiveReader.read(files: export.files, name: "old", today: Self.today)
        #expect(
            archive.habits == [
                HabitHistory(
                    name: "Wake up early",
                    createdOn: Self.date("2015-01-22"),
                    completions: [Self.date("2015-01-22"), Self.date("2015-01-25")]
                ),
                HabitHistory(
                    name: "Push-ups",
                    createdOn: Self.date("2015-01-23"),
                    completions: [Self.date("2015-01-23"), Self.date("2015-01-25")]
                ),
            ]
        )
        #expect(
            archive.notes == [
                "Wake up early: 2 times in 3 days in Loop; imported as every day (Streakd's schedules are weekdays)",
                "Wake up early: 1 automatic check ignored",
                "Wake up early: 1 unchecked day ignored",
                "Push-ups: values other than Loop's yes-or-no ones, in an export without habit types: read as a "
                    + "measurable habit, a day with a value above 0 became a completion",
                "Push-ups: 1 day with a value of 0 ignored",
            ]
        )
    }

    /// The first Kotlin versions: a Question column, Checkmarks.csv still without a header, -1 for
    /// an unknown day, 3 (or -3 in one revision) for a skip.
    @Test func readsAnEarlyKotlinExport() throws {
        var export = LoopExportFixture()
        export.set(
            "Habits.csv",
            [
                ["Position", "Name", "Question", "Description", "NumRepetitions", "Interval", "Color"],
                ["001", "Meditate", "Did you meditate this morning?", "", "1", "1", "#FF8F00"],
            ]
        )
        export.set("001 Meditate/Checkmarks.csv", text: "2021-03-04,3\n2021-03-03,-1\n2021-03-02,2\n2021-03-01,-3\n")
        let archive = try LoopArchiveReader.read(files: export.files, name: "2.0", today: Self.today)
        #expect(
            archive.habits == [
                HabitHistory(
                    name: "Meditate",
                    createdOn: Self.date("2021-03-01"),
                    completions: [Self.date("2021-03-02")],
                    skips: [Self.date("2021-03-01"), Self.date("2021-03-04")]
                )
            ]
        )
        #expect(archive.notes == ["Meditate: 1 day marked unknown ignored"])
    }

    @Test func numbersAndNamesMeanTheSameInTheValueColumn() throws {
        var export = LoopExportFixture()
        export.set("Habits.csv", [Fixture.habitsHeader, Fixture.yesNo("001", "Run")])
        export.set(
            "001 Run/Checkmarks.csv",
            [Fixture.checkmarksHeader, ["2024-04-30", "2", ""], ["2024-04-29", "3", ""], ["2024-04-28", "1", ""]]
        )
        let archive = try LoopArchiveReader.read(files: export.files, name: "x", today: Self.today)
        #expect(archive.habits.first?.completions == [Self.date("2024-04-30")])
        #expect(archive.habits.first?.skips == [Self.date("2024-04-29")])
    }

    @Test func sameNamesAreKeptApart() throws {
        var export = LoopExportFixture()
        let long = String(repeating: "é", count: 200)
        export.set(
            "Habits.csv",
            [
                Fixture.habitsHeader, Fixture.yesNo("001", "Run"), Fixture.yesNo("002", "Run"),
                Fixture.yesNo("003", long), Fixture.yesNo("004", long),
            ]
        )
        let archive = try LoopArchiveReader.read(files: export.files, name: "x", today: Self.today)
        let shortened = String(repeating: "é", count: 196) + " (2)"
        #expect(archive.habits.map(\.name) == ["Run", "Run (2)", long, shortened])
        #expect(shortened.count == 200)
        #expect(archive.notes.contains("Run (Habits.csv line 3): imported as 'Run (2)'; an earlier habit has its name"))
    }

    @Test func leavesOutAFolderWithoutAPosition() throws {
        var export = LoopExportFixture()
        export.set("Habits.csv", [Fixture.habitsHeader, Fixture.yesNo("001", "Run")])
        export.set("001 Run/Checkmarks.csv", [Fixture.checkmarksHeader, ["2024-04-30", "YES_MANUAL", ""]])
        export.set("Copies/Checkmarks.csv", [Fixture.checkmarksHeader])
        let archive = try LoopArchiveReader.read(files: export.files, name: "x", today: Self.today)
        #expect(archive.habits.map(\.completions) == [[Self.date("2024-04-30")]])
        #expect(
            archive.notes == [
                "Copies/Checkmarks.csv: left out; its folder does not start with a habit's position (001)"
            ]
        )
    }

    // MARK: - What stops an import

    struct Bad: CustomTestStringConvertible, Sendable {
        var name: String
        var files: [String: [UInt8]]
        var message: String
        var testDescription: String { name }
    }

    static func modern(_ change: (inout LoopExportFixture) -> Void) -> [String: [UInt8]] {
        var export = Fixture.modern
        change(&export)
        return export.files
    }

    static func meditate(_ rows: [[String]]) -> [String: [UInt8]] {
        modern { $0.set("001 Meditate/Checkmarks.csv", [Fixture.checkmarksHeader] + rows) }
    }

    static func habits(_ rows: [[String]]) -> [String: [UInt8]] {
        var export = LoopExportFixture()
        export.set("Habits.csv", rows)
        return export.files
    }

    static let header = Fixture.habitsHeader
    static let expectedHabitsColumns =
        "Loop's Habits.csv has Position and Name, and in some versions Type, Question, Description, "
        + "NumRepetitions and Interval (or FrequencyNumerator and FrequencyDenominator), Color, Unit, "
        + "Target Type, Target Value and Archived?"
    static let expectedCheckmarksColumns =
        "expected the header Date,Value,Notes (recent Loop versions) or, without a header, rows of "
        + "date,value (older ones)"

    static let bad: [Bad] = [
        Bad(
            name: "no Habits.csv",
            files: ["001 Run/Checkmarks.csv": Array("Date,Value,Notes\n".utf8)],
            message: "x: has no Habits.csv: it is not Loop Habit Tracker's CSV export (Settings, Export as CSV)"
        ),
        Bad(
            name: "an empty Habits.csv",
            files: ["Habits.csv": []],
            message: "Habits.csv:1: is empty; expected a header row. " + expectedHabitsColumns
        ),
        Bad(
            name: "an unknown column in Habits.csv",
            files: habits([["Position", "Name", "Streak"], ["001", "Run", "4"]]),
            message: "Habits.csv:1: Streak: unknown column (column 3). " + expectedHabitsColumns
        ),
        Bad(
            name: "Habits.csv without Name",
            files: habits([["Position", "Description"], ["001", "Run"]]),
            message: "Habits.csv:1: Name: missing column. " + expectedHabitsColumns
        ),
        Bad(
            name: "half of a frequency",
            files: habits([["Position", "Name", "NumRepetitions"], ["001", "Run", "1"]]),
            message: "Habits.csv:1: Interval: missing column. " + expectedHabitsColumns
        ),
        Bad(
            name: "a column twice",
            files: habits([["Position", "Name", "Name"], ["001", "Run", "Run"]]),
            message: "Habits.csv:1: Name: the column appears twice"
        ),
        Bad(
            name: "a row with a field missing",
            files: habits([["Position", "Name", "Color"], ["001", "Run", "#FF8F00"], ["002", "Read"]]),
            message: "Habits.csv:3: has 2 fields where the header has 3"
        ),
        Bad(
            name: "a name of 201 characters",
            files: habits([
                header, Fixture.yesNo("001", "Run"), Fixture.yesNo("002", String(repeating: "ü", count: 201)),
            ]),
            message: "Habits.csv:3: Name: the name has 201 characters; Streakd takes 1 to 200. "
                + "Shorten it in Loop and export again"
        ),
        Bad(
            name: "a blank name",
            files: habits([header, Fixture.yesNo("001", "  ")]),
            message: "Habits.csv:2: Name: the name is blank; a habit name needs a character other than spaces"
        ),
        Bad(
            name: "an empty name",
            files: habits([["Position", "Name"], ["001", ""]]),
            message: "Habits.csv:2: Name: the name is blank; a habit name needs a character other than spaces"
        ),
        Bad(
            name: "a position that is not a number",
            files: habits([["Position", "Name"], ["first", "Run"]]),
            message: "Habits.csv:2: Position: 'first' is not a position like 001"
        ),
        Bad(
            name: "a position twice",
            files: habits([["Position", "Name"], ["001", "Run"], ["001", "Read"]]),
            message: "Habits.csv:3: Position: position 1 is also on line 2"
        ),
        Bad(
            name: "an unknown habit type",
            files: habits([header, ["001", "Run", "TIMER", "", "", "1", "1", "#FF8F00", "", "", "", "false"]]),
            message: "Habits.csv:2: Type: 'TIMER' is neither YES_NO nor NUMERICAL"
        ),
        Bad(
            name: "a measurable habit without a target",
            files: habits([
                header, ["001", "Run", "NUMERICAL", "", "", "1", "1", "#FF8F00", "km", "AT_LEAST", "", "false"],
            ]),
            message: "Habits.csv:2: Target Value: '' is not a number of 0 or more, like 10.0"
        ),
        Bad(
            name: "a frequency of zero",
            files: habits([header, Fixture.yesNo("001", "Run", every: (0, 7))]),
            message: "Habits.csv:2: FrequencyNumerator: '0' is not a whole number of 1 or more"
        ),
        Bad(
            name: "Archived? neither true nor false",
            files: habits([header, ["001", "Run", "YES_NO", "", "", "1", "1", "#FF8F00", "", "", "", "yes"]]),
            message: "Habits.csv:2: Archived?: 'yes' is neither true nor false"
        ),
        Bad(
            name: "a date that does not exist",
            files: meditate([["2023-03-01", "YES_MANUAL", ""], ["2023-02-29", "YES_MANUAL", ""]]),
            message: "001 Meditate/Checkmarks.csv:3: Date: 2023-02-29 does not exist: 2023-02 has 28 days"
        ),
        Bad(
            name: "a date in another form",
            files: meditate([["30/04/2024", "YES_MANUAL", ""]]),
            message: "001 Meditate/Checkmarks.csv:2: Date: '30/04/2024' is not a date in the form YYYY-MM-DD"
        ),
        Bad(
            name: "a date that does not exist in a file without a header",
            files: modern { $0.set("001 Meditate/Checkmarks.csv", text: "2023-02-29,2\n") },
            message: "001 Meditate/Checkmarks.csv:1: Date: 2023-02-29 does not exist: 2023-02 has 28 days"
        ),
        Bad(
            name: "a date twice",
            files: meditate([["2024-04-30", "YES_MANUAL", ""], ["2024-04-30", "NO", ""]]),
            message: "001 Meditate/Checkmarks.csv:3: Date: 2024-04-30 is also on line 2"
        ),
        Bad(
            name: "a value Loop does not write",
            files: meditate([["2024-04-30", "MAYBE", ""]]),
            message: "001 Meditate/Checkmarks.csv:2: Value: 'MAYBE' is not a Loop entry value: YES_MANUAL, YES_AUTO, "
                + "NO, SKIP, UNKNOWN or a whole number"
        ),
        Bad(
            name: "a number too large for Loop",
            files: meditate([["2024-04-30", "99999999999", ""]]),
            message: "001 Meditate/Checkmarks.csv:2: Value: '99999999999' is not a Loop entry value: YES_MANUAL, "
                + "YES_AUTO, NO, SKIP, UNKNOWN or a whole number"
        ),
        Bad(
            name: "a number in a yes-or-no habit",
            files: meditate([["2024-04-30", "7", ""]]),
            message: "001 Meditate/Checkmarks.csv:2: Value: 7 is not a yes-or-no value (YES_MANUAL 2, YES_AUTO 1, "
                + "NO 0, UNKNOWN -1, SKIP 3) and Habits.csv says the habit is YES_NO"
        ),
        Bad(
            name: "a negative measurement",
            files: modern {
                $0.set("003 Pages/Checkmarks.csv", [Fixture.checkmarksHeader, ["2024-04-30", "-500", ""]])
            },
            message: "003 Pages/Checkmarks.csv:2: Value: -500 is negative; a measurable habit's value is 0 or more "
                + "(in thousandths)"
        ),
        Bad(
            name: "an unknown column in Checkmarks.csv",
            files: modern { $0.set("001 Meditate/Checkmarks.csv", [["Date", "Value", "Mood"]]) },
            message: "001 Meditate/Checkmarks.csv:1: Mood: unknown column (column 3); " + expectedCheckmarksColumns
        ),
        Bad(
            name: "Checkmarks.csv without Value",
            files: modern { $0.set("001 Meditate/Checkmarks.csv", [["Date", "Notes"]]) },
            message: "001 Meditate/Checkmarks.csv:1: Value: missing column; " + expectedCheckmarksColumns
        ),
        Bad(
            name: "Checkmarks.csv without Date",
            files: modern { $0.set("001 Meditate/Checkmarks.csv", [["Value", "Notes"]]) },
            message: "001 Meditate/Checkmarks.csv:1: Date: missing column; " + expectedCheckmarksColumns
        ),
        Bad(
            name: "a column twice in Checkmarks.csv",
            files: modern { $0.set("001 Meditate/Checkmarks.csv", [["Date", "Value", "Value"]]) },
            message: "001 Meditate/Checkmarks.csv:1: Value: the column appears twice"
        ),
        Bad(
            name: "a row with a field too many",
            files: modern { $0.set("001 Meditate/Checkmarks.csv", text: "2024-04-30,2,extra\n") },
            message: "001 Meditate/Checkmarks.csv:1: has 3 fields where 2 are expected; " + expectedCheckmarksColumns
        ),
        Bad(
            name: "a quoted note never closed",
            files: modern {
                $0.set("001 Meditate/Checkmarks.csv", text: "Date,Value,Notes\n2024-04-30,NO,\"cut off\n")
            },
            message: "001 Meditate/Checkmarks.csv:2: column 3: a quoted field that starts here is never closed "
                + "(the file may be truncated)"
        ),
        Bad(
            name: "a folder whose habit Habits.csv lacks",
            files: modern { $0.set("042 Ghost/Checkmarks.csv", [Fixture.checkmarksHeader]) },
            message: "042 Ghost/Checkmarks.csv: Habits.csv has no habit at position 42; the export is incomplete "
                + "or mixed with another"
        ),
        Bad(
            name: "two folders for one habit",
            files: modern { $0.set("001 Meditation/Checkmarks.csv", [Fixture.checkmarksHeader]) },
            message: "001 Meditation/Checkmarks.csv: a second folder for the habit at position 1 (the first is "
                + "'001 Meditate')"
        ),
        Bad(
            name: "two exports side by side",
            files: ["a/Habits.csv": [], "b/Habits.csv": []],
            message: "x: holds several exports (a/Habits.csv, b/Habits.csv); import them one at a time"
        ),
    ]

    @Test(arguments: bad)
    func stops(_ example: Bad) {
        #expect {
            try LoopArchiveReader.read(files: example.files, name: "x", today: Self.today)
        } throws: { error in
            "\(error)" == example.message
        }
        // The same from the ZIP archive, whose entries' paths the errors name alike.
        var zip = TestZip()
        for (path, bytes) in example.files.sorted(by: { $0.key < $1.key }) { zip.add(path, bytes) }
        #expect {
            try LoopArchiveReader.read(zip: zip.bytes, name: "x", today: Self.today)
        } throws: { error in
            "\(error)" == example.message
        }
    }

    @Test func namesTheFileAndLineInAFolder() throws {
        var export = Fixture.modern
        export.set("001 Meditate/Checkmarks.csv", [Fixture.checkmarksHeader, ["2023-02-29", "YES_MANUAL", ""]])
        let folder = try export.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect {
            try LoopArchiveReader.read(contentsOf: folder, today: Self.today)
        } throws: { error in
            "\(error)"
                == "\(folder)/001 Meditate/Checkmarks.csv:2: Date: 2023-02-29 does not exist: 2023-02 has 28 days"
        }
    }

    @Test func stopsOnATruncatedOrCorruptZip() throws {
        let whole = Fixture.modern.zip()
        #expect {
            try LoopArchiveReader.read(zip: Array(whole.prefix(whole.count - 30)), name: "a.zip", today: Self.today)
        } throws: { error in
            "\(error)" == "a.zip: is truncated or corrupt: it has no end-of-central-directory record"
        }
        // Every entry's data overwritten: the first Checkmarks.csv read is the first to fail.
        var corrupt = whole
        let zip = try ZipReader(bytes: whole, name: "a.zip")
        let meditate = try #require(zip.entry("001 Meditate/Checkmarks.csv"))
        let start = try #require(Self.dataStart(of: meditate, in: whole))
        for index in start..<start + meditate.compressedSize { corrupt[index] = 0xFF }
        #expect {
            try LoopArchiveReader.read(zip: corrupt, name: "a.zip", today: Self.today)
        } throws: { error in
            "\(error)"
                == "a.zip: 001 Meditate/Checkmarks.csv: its compressed data is corrupt (zlib: invalid block type)"
        }
        #expect {
            try LoopArchiveReader.read(zip: Array("Position,Name\n".utf8), name: "Habits.zip", today: Self.today)
        } throws: { error in
            "\(error)".hasPrefix("Habits.zip: is not a ZIP archive")
        }
    }

    @Test func aPathThatDoesNotExist() {
        #expect {
            try LoopArchiveReader.read(contentsOf: "/nonexistent/Loop Habits CSV.zip", today: Self.today)
        } throws: { error in
            "\(error)" == "/nonexistent/Loop Habits CSV.zip: does not exist"
        }
    }

    /// Where an entry's data starts: after its local header's 30 bytes, name and extra field.
    static func dataStart(of entry: ZipReader.Entry, in bytes: [UInt8]) -> Int? {
        let name = Array(entry.path.utf8)
        for offset in 0..<(bytes.count - 30 - name.count)
        where bytes[offset..<offset + 4] == [0x50, 0x4B, 0x03, 0x04][...]
            && Array(bytes[offset + 30..<offset + 30 + name.count]) == name
        {
            let extra = Int(bytes[offset + 28]) | Int(bytes[offset + 29]) << 8
            return offset + 30 + name.count + extra
        }
        return nil
    }
}
