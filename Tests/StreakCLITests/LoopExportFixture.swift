import Foundation
import StreakCLI
import StreakCore

/// Loop Habit Tracker exports built from the columns docs/LOOP-IMPORT.md documents, written the
/// way Loop's CSVWriter writes them (a field is quoted only when it holds a comma, a quote or a
/// line break; quotes are doubled; lines end in LF).
struct LoopExportFixture {
    /// Files by their path inside the export.
    var files: [String: [UInt8]] = [:]

    static func csvLine(_ fields: [String]) -> String {
        fields.map { field in
            field.unicodeScalars.contains(where: { ",\"\n\r".unicodeScalars.contains($0) })
                ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
        }.joined(separator: ",") + "\n"
    }

    static func csv(_ rows: [[String]]) -> [UInt8] {
        Array(rows.map(csvLine).joined().utf8)
    }

    mutating func set(_ path: String, _ rows: [[String]]) {
        files[path] = Self.csv(rows)
    }

    mutating func set(_ path: String, text: String) {
        files[path] = Array(text.utf8)
    }

    /// The export as a ZIP archive: Habits.csv stored, the rest deflated with their sizes in data
    /// descriptors, as Java's ZipOutputStream writes them (Loop deflates everything; mixing both
    /// methods tests both).
    func zip() -> [UInt8] {
        var zip = TestZip()
        for path in files.keys.sorted() {
            let stored = path.hasSuffix("Habits.csv")
            zip.add(path, files[path]!, method: stored ? .stored : .deflated, dataDescriptor: !stored)
        }
        return zip.bytes
    }

    /// Writes the export into a new temporary folder and returns its path.
    func folder() throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("loop-\(UUID().uuidString)")
        for (path, bytes) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try Data(bytes).write(to: url)
        }
        return root.path
    }

    // MARK: - Recent versions (Type, Target and Archived? columns; Date,Value,Notes)

    static let habitsHeader = [
        "Position", "Name", "Type", "Question", "Description", "FrequencyNumerator", "FrequencyDenominator", "Color",
        "Unit", "Target Type", "Target Value", "Archived?",
    ]

    static func yesNo(
        _ position: String,
        _ name: String,
        every: (Int, Int) = (1, 1),
        archived: Bool = false
    )
        -> [String]
    {
        [
            position, name, "YES_NO", "Did you \(name)?", "", "\(every.0)", "\(every.1)", "#FF8F00", "", "", "",
            "\(archived)",
        ]
    }

    static func numerical(_ position: String, _ name: String, atMost: Bool, target: String, unit: String) -> [String] {
        [
            position, name, "NUMERICAL", "How many?", "", "1", "1", "#00897B", unit, atMost ? "AT_MOST" : "AT_LEAST",
            target, "false",
        ]
    }

    static let checkmarksHeader = ["Date", "Value", "Notes"]

    static let multilingual = "Lire, «vite» \"ok\" – Ünïcode"

    /// Several habits with manual and automatic checks, skips, unknown days with notes, a
    /// measurable habit, archived ones and one without a folder; newest entries first, as Loop
    /// writes them.
    static var modern: LoopExportFixture {
        var export = LoopExportFixture()
        export.set(
            "Habits.csv",
            [
                habitsHeader,
                yesNo("001", "Meditate"),
                yesNo("002", multilingual, every: (3, 7)),
                numerical("003", "Pages", atMost: false, target: "10.0", unit: "pages"),
                numerical("004", "Coffee", atMost: true, target: "2.0", unit: "cups"),
                yesNo("005", "Old run", archived: true),
                yesNo("006", "Never done", archived: true),
                yesNo("007", "Not selected"),
            ]
        )
        export.set(
            "001 Meditate/Checkmarks.csv",
            [
                checkmarksHeader,
                ["2024-04-30", "YES_MANUAL", ""],
                ["2024-04-29", "SKIP", "Travelling, \"busy\""],
                ["2024-04-28", "NO", ""],
                ["2024-04-27", "UNKNOWN", "Forgot\nto log"],
                ["2024-04-26", "YES_AUTO", ""],
                ["2024-02-29", "YES_MANUAL", ""],
            ]
        )
        // Loop keeps [ a-zA-Z0-9._-] of a name for its folder.
        export.set(
            "002 Lire vite ok  nicode/Checkmarks.csv",
            [
                checkmarksHeader,
                ["2024-04-30", "YES_AUTO", ""],
                ["2024-04-29", "YES_AUTO", ""],
                ["2024-04-28", "YES_MANUAL", "«bien»"],
                ["2024-04-27", "YES_MANUAL", ""],
                ["2024-04-26", "YES_MANUAL", ""],
                ["2024-04-25", "YES_AUTO", ""],
            ]
        )
        export.set(
            "003 Pages/Checkmarks.csv",
            [
                checkmarksHeader,
                ["2024-04-30", "12000", ""],
                ["2024-04-29", "10000", ""],
                ["2024-04-28", "9999", ""],
                ["2024-04-27", "SKIP", ""],
                ["2024-04-26", "NO", ""],
            ]
        )
        export.set(
            "004 Coffee/Checkmarks.csv",
            [checkmarksHeader, ["2024-04-30", "3000", ""], ["2024-04-29", "2000", ""], ["2024-04-28", "500", ""]]
        )
        export.set(
            "005 Old run/Checkmarks.csv",
            [checkmarksHeader, ["2023-06-12", "YES_AUTO", ""], ["2023-06-10", "YES_MANUAL", ""]]
        )
        export.set("006 Never done/Checkmarks.csv", [checkmarksHeader])
        // Loop's files for all habits together, which the reader leaves alone.
        export.set("Checkmarks.csv", text: "Date,Meditate,\(multilingual),\n2024-04-30,2,1,\n")
        export.set("Scores.csv", text: "Date,Meditate,\n2024-04-30,0.5000,\n")
        export.set("001 Meditate/Scores.csv", [["Date", "Score"], ["2024-04-30", "0.5000"]])
        return export
    }

    static func date(_ text: String) -> CivilDate {
        try! CivilDate(parsing: text)
    }

    static let today = date("2024-05-01")

    /// What `modern` imports as.
    static var modernArchive: ImportArchive {
        ImportArchive(
            habits: [
                HabitHistory(
                    name: "Meditate",
                    createdOn: date("2024-02-29"),
                    completions: [date("2024-02-29"), date("2024-04-30")],
                    skips: [date("2024-04-29")]
                ),
                HabitHistory(
                    name: multilingual,
                    createdOn: date("2024-04-25"),
                    completions: [date("2024-04-26"), date("2024-04-27"), date("2024-04-28")]
                ),
                HabitHistory(
                    name: "Pages",
                    createdOn: date("2024-04-26"),
                    completions: [date("2024-04-29"), date("2024-04-30")],
                    skips: [date("2024-04-27")]
                ),
                HabitHistory(
                    name: "Coffee",
                    createdOn: date("2024-04-28"),
                    completions: [date("2024-04-28"), date("2024-04-29")]
                ),
                HabitHistory(
                    name: "Old run",
                    createdOn: date("2023-06-10"),
                    archivedOn: date("2023-06-11"),
                    completions: [date("2023-06-10")]
                ),
                HabitHistory(name: "Never done", archivedOn: today),
                HabitHistory(name: "Not selected"),
            ],
            notes: [
                "Meditate: 1 automatic check ignored",
                "Meditate: 1 unchecked day ignored",
                "Meditate: 1 day marked unknown ignored",
                "Meditate: 2 day notes not imported (Streakd keeps no notes on days)",
                "\(multilingual): 3 times in 7 days in Loop; imported as every day (Streakd's schedules are weekdays)",
                "\(multilingual): 3 automatic checks ignored",
                "\(multilingual): 1 day note not imported (Streakd keeps no notes on days)",
                "Pages: measurable in Loop (at least 10 pages); a day with an entry of at least 10 pages became a completion",
                "Pages: 2 days short of the target ignored",
                "Coffee: measurable in Loop (at most 2 cups); a day with an entry of at most 2 cups became a completion",
                "Coffee: 1 day over the limit ignored",
                "Old run: 1 automatic check ignored",
                "Never done: archived in Loop with no entries to date it; archived from today (2024-05-01)",
                "Not selected: no Checkmarks.csv for it in the export; imported without history",
            ]
        )
    }
}
