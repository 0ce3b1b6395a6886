import Foundation
import StreakCore
import StreakTestSupport
import Testing

/// `streak export` and `streak import` against real streakd processes: exact round trips, idempotent
/// imports, dry runs, and bad files that stop with the file, line and field named and write nothing.
@Suite("streak export and import", .serialized)
struct CLITransferTests {
    /// The export without its own timestamp line.
    static func withoutTimestamp(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("\"exported_at\"") }
            .joined(separator: "\n")
    }

    static func exportText(_ cli: CLIRunner) throws -> String {
        let output = try cli.run(["export"])
        #expect(output.status == 0, "\(output.stderr)")
        return output.stdout
    }

    static func file(_ name: String, _ text: String) throws -> URL {
        let directory = ServerProcess.temporaryDirectory(prefix: "streak-transfer")
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test func theSampleYearRoundTripsExactlyAndASecondImportChangesNothing() throws {
        let source = try ServerProcess.start()
        defer { source.stop() }
        let target = try ServerProcess.start()
        defer { target.stop() }
        let from = CLIRunner(server: "127.0.0.1:\(source.port)", token: source.token)
        let to = CLIRunner(server: "127.0.0.1:\(target.port)", token: target.token)
        #expect(try from.run(["sample", "--seed", "7"]).status == 0)
        // Schedules, skips, a rest period with quotes in its note, an archived habit, settings.
        #expect(try from.run(["habit", "schedule", "Journal", "--on", "mon,wed", "--from", "2025-03-03"]).status == 0)
        #expect(try from.run(["skip", "Meditate", "--date", "2025-06-12"]).status == 0)
        #expect(try from.run(["rest", "add", "2025-05-01", "2025-05-03", "--note", "Trip, \"fun\" – été"]).status == 0)
        #expect(try from.run(["habit", "archive", "Stretch", "--date", "2025-06-01"]).status == 0)
        #expect(
            try from.run(["settings", "--locale", "de_DE", "--min-percent", "40", "--day-start", "03:00"]).status == 0
        )

        let first = try Self.exportText(from)
        let file = try Self.file("export.json", first)
        let dryRun = try to.run(["import", file.path, "--dry-run", "--json"])
        #expect(dryRun.stdout.contains("\"habits_matched\": 0"), "\(dryRun.stdout)")
        #expect(Self.withoutTimestamp(try Self.exportText(to)).contains("\"habits\": []"), "a dry run changed data")

        let imported = try to.run(["import", file.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("imported: 5 habits created, 0 matched"), "\(imported.stdout)")
        let second = try Self.exportText(to)
        #expect(Self.withoutTimestamp(second) == Self.withoutTimestamp(first))

        let again = try to.run(["import", file.path, "--json"])
        #expect(again.stdout.contains("\"completions_added\": 0") && again.stdout.contains("\"habits_created\": 0"))
        #expect(Self.withoutTimestamp(try Self.exportText(to)) == Self.withoutTimestamp(first))
        // From a pipe: `-` and /dev/stdin (`streak export | streak import -`).
        for name in ["-", "/dev/stdin"] {
            let piped = try to.run(["import", name, "--json"], input: Data(first.utf8))
            #expect(piped.status == 0 && piped.stdout.contains("\"habits_matched\": 5"), "\(name): \(piped)")
        }
    }

    @Test func aGeneratedTenYearHistoryRoundTrips() throws {
        let source = try ServerProcess.start()
        defer { source.stop() }
        let target = try ServerProcess.start()
        defer { target.stop() }
        let from = CLIRunner(server: "127.0.0.1:\(source.port)", token: source.token)
        let to = CLIRunner(server: "127.0.0.1:\(target.port)", token: target.token)
        let generated = try Self.file("ten-years.json", TenYearHistory.json(habits: 12, seed: 11))
        let loaded = try from.run(["import", generated.path])
        #expect(loaded.status == 0, "\(loaded.stderr)")
        let first = try Self.exportText(from)
        #expect(first.count > 200_000, "the history is smaller than meant: \(first.count) bytes")
        let copy = try Self.file("copy.json", first)
        #expect(try to.run(["import", copy.path]).status == 0)
        #expect(Self.withoutTimestamp(try Self.exportText(to)) == Self.withoutTimestamp(first))
    }

    @Test func badFilesStopWithFileLineAndFieldAndWriteNothing() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        #expect(try cli.run(["sample", "--seed", "3", "--habits", "2"]).status == 0)
        let before = Self.withoutTimestamp(try Self.exportText(cli))
        let good = try Self.exportText(cli)
        let long = String(repeating: "x", count: 201)
        let cases: [(String, String, String)] = [
            ("truncated.json", String(good.prefix(good.count / 2)), "the file ends early"),
            (
                "newer.json", #"{"format": "streakd-export", "version": 2, "habits": []}"#,
                "newer.json:1: version: written in format version 2"
            ),
            (
                "leap.json",
                "{\"format\": \"streakd-export\", \"version\": 1,\n\"habits\": [{\"name\": \"New\",\n\"completions\": [\"2023-02-29\"]}]}",
                "leap.json:3: habits[0].completions[0]: 2023-02-29 does not exist"
            ),
            (
                "long.json", "{\"format\": \"streakd-export\", \"version\": 1, \"habits\": [{\"name\": \"\(long)\"}]}",
                "habits[0].name: a habit name is 1 to 200 characters"
            ),
            ("other.json", #"{"hello": 1}"#, "not a Streakd export"),
            ("garbage.json", "\u{00}\u{01}binary", "not valid JSON"),
        ]
        for (name, text, phrase) in cases {
            let url = try Self.file(name, text)
            let output = try cli.run(["import", url.path])
            #expect(output.status == 65, "\(name): \(output.status) \(output.stderr)")
            #expect(output.stderr.contains(phrase), "\(name): \(output.stderr)")
            #expect(output.stderr.contains("nothing was imported"), "\(name): \(output.stderr)")
        }
        #expect(Self.withoutTimestamp(try Self.exportText(cli)) == before, "a refused file changed the account")
    }

    @Test func recordsTheServerRefusesAreListedAndTheRestIsImported() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        #expect(try cli.run(["habit", "add", "Read", "--date", "2025-06-01"]).status == 0)
        let file = try Self.file(
            "partial.json",
            #"{"format": "streakd-export", "version": 1, "habits": [{"name": "Read", "completions": ["2025-05-30", "2025-06-02"], "skips": ["2025-06-02", "2025-06-03"]}]}"#
        )
        let output = try cli.run(["import", file.path])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("1 completion, 1 skip,"), "\(output.stdout)")
        #expect(
            output.stderr.contains("'Read' completions 2025-05-30: before the habit's first day 2025-06-01"),
            "\(output.stderr)"
        )
        #expect(output.stderr.contains("'Read' skips 2025-06-02: the day is also a completion"), "\(output.stderr)")
    }

    @Test func deleteAsksOrNeedsYesAndUnarchiveBringsAHabitBack() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        #expect(try cli.run(["sample", "--seed", "3", "--habits", "2"]).status == 0)
        let refused = try cli.run(["habit", "delete", "Read 20 pages"])
        #expect(refused.status == 64 && refused.stderr.contains("pass --yes"), "\(refused.stderr)")
        let deleted = try cli.run(["--json", "habit", "delete", "Read 20 pages", "--yes"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stdout.contains("\"completions\": "), "\(deleted.stdout)")
        let list = try cli.run(["habit", "list", "--all"])
        #expect(!list.stdout.contains("Read 20 pages"), "\(list.stdout)")
        #expect(!(try Self.exportText(cli)).contains("Read 20 pages"))

        #expect(try cli.run(["habit", "archive", "Morning run", "--date", "2025-06-01"]).status == 0)
        let back = try cli.run(["habit", "unarchive", "Morning run"])
        #expect(back.status == 0 && back.stdout.contains("counts again"), "\(back.stderr)")
        let twice = try cli.run(["habit", "unarchive", "Morning run"])
        #expect(twice.status == 65 && twice.stderr.contains("is not archived"), "\(twice.stderr)")
    }
}

/// A deterministic ten-year history as an export file: habits with schedules that change, skips,
/// archived habits, rest periods, about 60 % of days done.
enum TenYearHistory {
    static func json(habits count: Int, seed: UInt64) throws -> String {
        var random = SplitMix64(seed: seed)
        let start = try CivilDate(parsing: "2015-06-16")
        let end = try CivilDate(parsing: "2025-06-15")
        var habits: [String] = []
        for index in 0..<count {
            let created = try start.adding(days: Int(random.next() % 200))
            let archived = index % 5 == 4 ? try end.adding(days: -Int(random.next() % 400)) : nil
            var completions: [String] = []
            var skips: [String] = []
            var day = created
            while day <= end && archived.map({ day < $0 }) ?? true {
                let roll = random.next() % 100
                if roll < 60 { completions.append("\"\(day)\"") } else if roll < 63 { skips.append("\"\(day)\"") }
                day = try day.adding(days: 1)
            }
            let schedule =
                index % 3 == 0
                ? #"[{"effective_from": "\#(try created.adding(days: 30))", "weekdays": ["monday", "wednesday", "friday"]}]"#
                : "[]"
            habits.append(
                """
                {"name": "Habit \(index) – ü", "created_on": "\(created)", "archived_on": \(archived.map { "\"\($0)\"" } ?? "null"),
                 "schedule": \(schedule), "completions": [\(completions.joined(separator: ","))], "skips": [\(skips.joined(separator: ","))]}
                """
            )
        }
        return """
            {"format": "streakd-export", "version": 1, "habits": [\(habits.joined(separator: ",\n"))],
             "rest_periods": [{"from": "2019-08-01", "to": "2019-08-14", "note": "Holiday"}]}
            """
    }
}

/// `streak import` of Loop Habit Tracker's CSV export, built from the documented columns.
@Suite("streak import of a Loop Habit Tracker archive", .serialized)
struct CLILoopImportTests {
    static let habits = """
        Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color,Unit,Target Type,Target Value,Archived?
        001,Meditate,YES_NO,Did you meditate?,,1,1,#FF8F00,,,,false
        002,"Lire, «vite» ""ok"" – Ünïcode",YES_NO,,,3,7,#3949AB,,,,false

        """
    static let meditate = """
        Date,Value,Notes
        2025-06-14,YES_MANUAL,
        2025-06-13,YES_AUTO,
        2025-06-12,SKIP,Sick
        2025-06-11,YES_MANUAL,"Calm, finally"
        2025-06-10,NO,

        """
    static let read = """
        Date,Value,Notes
        2025-06-15,YES_MANUAL,
        2025-06-14,UNKNOWN,

        """

    static func folder() throws -> URL {
        let root = ServerProcess.temporaryDirectory(prefix: "loop-export")
        let fileManager = FileManager.default
        try fileManager.createDirectory(
            at: root.appendingPathComponent("001 Meditate"),
            withIntermediateDirectories: true
        )
        try fileManager.createDirectory(
            at: root.appendingPathComponent("002 Lire, «vite» \"ok\" – Ünïcode"),
            withIntermediateDirectories: true
        )
        try habits.write(to: root.appendingPathComponent("Habits.csv"), atomically: true, encoding: .utf8)
        try meditate.write(
            to: root.appendingPathComponent("001 Meditate/Checkmarks.csv"),
            atomically: true,
            encoding: .utf8
        )
        try read.write(
            to: root.appendingPathComponent("002 Lire, «vite» \"ok\" – Ünïcode/Checkmarks.csv"),
            atomically: true,
            encoding: .utf8
        )
        return root
    }

    @Test func aLoopFolderAndItsZipImportManualChecksAndSkipsOnly() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        let folder = try Self.folder()
        let dryRun = try cli.run(["import", folder.path, "--dry-run"])
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        #expect(dryRun.stdout.contains("habits: 2 to create"), "\(dryRun.stdout)")
        let imported = try cli.run(["import", folder.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("2 habits created") && imported.stdout.contains("3 completions, 1 skip,"))
        #expect(imported.stderr.contains("automatic check"), "\(imported.stderr)")

        let export = try cli.run(["export"]).stdout
        #expect(export.contains("\"name\": \"Lire, «vite» \\\"ok\\\" – Ünïcode\""), "\(export)")
        for day in ["2025-06-14", "2025-06-11", "2025-06-15", "2025-06-12"] {
            #expect(export.contains("\"\(day)\""), "\(day) is missing")
        }
        // An automatic check and a NO bring nothing (2025-06-10, the first entry, is Meditate's first day).
        #expect(!export.contains("\"2025-06-13\""), "an automatic check came in")
        #expect(export.components(separatedBy: "\"2025-06-10\"").count == 2, "a NO came in: \(export)")
        #expect(export.contains("\"created_on\": \"2025-06-10\""))

        // The same export zipped (as Loop shares it): nothing new.
        let zip = folder.deletingLastPathComponent().appendingPathComponent("Loop Habits CSV 2025-06-15.zip")
        let zipper = Process()
        zipper.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        zipper.arguments = ["zip", "-qr", zip.path, "."]
        zipper.currentDirectoryURL = folder
        try zipper.run()
        zipper.waitUntilExit()
        #expect(zipper.terminationStatus == 0, "zip is needed (scripts/test.sh installs it)")
        let again = try cli.run(["import", zip.path])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("0 habits created, 2 matched; 0 completions, 0 skips"), "\(again.stdout)")
    }

    @Test func aBadLoopArchiveStopsWithFileLineAndField() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        let folder = try Self.folder()
        try Self.meditate.replacingOccurrences(of: "2025-06-11", with: "2023-02-29")
            .write(to: folder.appendingPathComponent("001 Meditate/Checkmarks.csv"), atomically: true, encoding: .utf8)
        let output = try cli.run(["import", folder.path])
        #expect(output.status == 65, "\(output.stderr)")
        #expect(output.stderr.contains("001 Meditate/Checkmarks.csv:5"), "\(output.stderr)")
        #expect(
            output.stderr.contains("2023-02-29") && output.stderr.contains("nothing was imported"),
            "\(output.stderr)"
        )
        let zip = folder.appendingPathComponent("broken.zip")
        try Data("PK\u{03}\u{04}truncated".utf8).write(to: zip)
        let broken = try cli.run(["import", zip.path])
        #expect(broken.status == 65 && broken.stderr.contains("broken.zip"), "\(broken.stderr)")
        #expect(try cli.run(["habit", "list"]).stdout.contains("no habits yet"))
    }
}
