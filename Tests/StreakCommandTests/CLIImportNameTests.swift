import Foundation
import StreakTestSupport
import Testing

/// Names with control characters in an import: nothing is lost silently, and the dry run and the
/// import tell the same story.
@Suite("streak import and names with control characters", .serialized)
struct CLIImportNameTests {
    /// An unpacked Loop export whose first habit's name has a line break (quoted, as Loop writes it).
    static func loopFolder() throws -> URL {
        let folder = ServerProcess.temporaryDirectory(prefix: "streak-loop-names")
        let habits = """
            Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color,Unit,Target Type,Target Value,Archived?
            001,"Morning
            run",YES_NO,,,1,1,#FF8F00,,,,false
            002,Read,YES_NO,,,1,1,#FF8F00,,,,false

            """
        try habits.write(to: folder.appendingPathComponent("Habits.csv"), atomically: true, encoding: .utf8)
        for (folderName, day) in [("001 Morning run", "2025-06-10"), ("002 Read", "2025-06-11")] {
            let directory = folder.appendingPathComponent(folderName)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try "Date,Value,Notes\n\(day),YES_MANUAL,\n".write(
                to: directory.appendingPathComponent("Checkmarks.csv"),
                atomically: true,
                encoding: .utf8
            )
        }
        return folder
    }

    @Test func aLoopNameWithALineBreakIsImportedWithASpace() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        let folder = try Self.loopFolder()
        let dryRun = try cli.run(["import", folder.path, "--dry-run"])
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        #expect(dryRun.stdout.contains("habits: 2 to create (Morning run, Read), 0 matched"), "\(dryRun.stdout)")
        let imported = try cli.run(["import", folder.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(
            imported.stdout
                == "imported: 2 habits created, 0 matched; 2 completions, 0 skips, 0 rest periods added; "
                + "settings unchanged\n"
        )
        #expect(imported.stderr.contains("became spaces"), "\(imported.stderr)")
        let day = try cli.run(["day", "2025-06-10"])
        #expect(day.stdout.contains("✓ Morning run (#1)"), "\(day.stdout)")
    }

    @Test func aJSONNameWithATabStopsBeforeAnythingIsSent() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        let file = ServerProcess.temporaryDirectory(prefix: "streak-json-names").appendingPathComponent("tab.json")
        try """
        {"format": "streakd-export", "version": 1,
        "habits": [{"name": "Read", "completions": ["2025-06-01"]},
        {"name": "Morning\\trun", "completions": ["2025-06-01"]}]}
        """.write(to: file, atomically: true, encoding: .utf8)
        for arguments in [["import", file.path, "--dry-run"], ["import", file.path]] {
            let output = try cli.run(arguments)
            #expect(output.status == 65, "\(arguments): \(output.status) \(output.stdout)")
            #expect(
                output.stderr.contains(
                    "tab.json:3: habits[1].name: a habit name may not contain control characters; it has U+0009"
                ),
                "\(output.stderr)"
            )
            #expect(output.stderr.contains("nothing was imported"), "\(output.stderr)")
        }
        let list = try cli.run(["habit", "list", "--all"])
        #expect(!list.stdout.contains("Read"), "a refused file changed the account: \(list.stdout)")
    }
}
