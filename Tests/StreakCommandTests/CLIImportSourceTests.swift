import Foundation
import StreakTestSupport
import Testing

/// The files `streak import` takes: the Habits.csv of an unpacked Loop export reads the folder
/// it is in; any other CSV file says what to give instead.
@Suite("streak import's files", .serialized)
struct CLIImportSourceTests {
    @Test func theHabitsCSVOfAnUnpackedLoopExportReadsItsFolder() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        let folder = try CLIImportNameTests.loopFolder()
        let habits = folder.appendingPathComponent("Habits.csv")
        let imported = try cli.run(["import", habits.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("imported: 2 habits created, 0 matched; 2 completions"), "\(imported.stdout)")

        let checkmarks = folder.appendingPathComponent("002 Read/Checkmarks.csv")
        let renamed = ServerProcess.temporaryDirectory(prefix: "streak-renamed").appendingPathComponent(
            "habits (1).csv"
        )
        try FileManager.default.copyItem(at: habits, to: renamed)
        let cases: [(URL, String)] = [
            (
                checkmarks,
                "Checkmarks.csv: is a CSV file but not a Habits.csv; streak import reads a Streakd JSON export"
            ),
            (
                renamed,
                "habits (1).csv: looks like Loop's Habits.csv under another name; import Loop's export as its zip"
            ),
        ]
        for (file, message) in cases {
            let output = try cli.run(["import", file.path])
            #expect(output.status == 65, "\(file.path): \(output.status) \(output.stdout)")
            #expect(output.stderr.contains(message), "\(output.stderr)")
            #expect(!output.stderr.contains("not valid JSON"), "\(output.stderr)")
        }
    }
}
