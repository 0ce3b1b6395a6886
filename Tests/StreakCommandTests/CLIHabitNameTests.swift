import Foundation
import StreakTestSupport
import Testing

/// Habit names that several habits could share: `habit add` and `habit rename` refuse a taken
/// name, and a name that twins have (an import can bring them) is an error naming their ids.
@Suite("streak and duplicate habit names", .serialized)
struct CLIHabitNameTests {
    @Test func addAndRenameRefuseANameAnotherHabitHas() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        #expect(try cli.run(["habit", "add", "Read"]).status == 0)
        #expect(try cli.run(["habit", "add", "Caf\u{E9}"]).status == 0)
        #expect(try cli.run(["habit", "add", "Gym"]).status == 0)
        #expect(try cli.run(["habit", "archive", "Gym", "--date", "2025-06-15"]).status == 0)
        let cases: [([String], String)] = [
            (["habit", "add", "Read"], "a habit named 'Read' already exists: #1 'Read'; choose another name"),
            (["habit", "add", "Cafe\u{301}"], "a habit named 'Cafe\u{301}' already exists: #2 'Caf\u{E9}'"),
            (["habit", "add", "Gym"], "already exists: #3 'Gym' (archived from 2025-06-15)"),
            (["habit", "rename", "Gym", "Read"], "a habit named 'Read' already exists: #1 'Read'"),
            // Names `streak done` could not tell apart: case, surrounding white space.
            (["habit", "add", "rEAD"], "'rEAD' is taken: #1 'Read'; choose another name"),
            (["habit", "rename", "Gym", " read\t"], "'read' is taken: #1 'Read'"),
        ]
        for (arguments, message) in cases {
            let output = try cli.run(arguments)
            #expect(output.status == 65, "\(arguments): \(output.status) \(output.stdout)")
            #expect(output.stderr.contains(message), "\(arguments): \(output.stderr)")
        }
        let sameName = try cli.run(["habit", "rename", "Read", "Read"])
        #expect(sameName.status == 0, "renaming a habit to its own name: \(sameName.stderr)")
        let newCase = try cli.run(["habit", "rename", "Read", "READ"])
        #expect(newCase.stdout == "renamed habit 1 to 'READ'\n", "its own name in another case: \(newCase.stderr)")
        let padded = try cli.run(["habit", "add", "  Yoga \n"])
        #expect(padded.stdout.hasPrefix("added habit 4 'Yoga' from "), "\(padded.stdout) \(padded.stderr)")
        let list = try cli.run(["habit", "list", "--all", "--json"])
        #expect(list.stdout.components(separatedBy: "\"name\"").count == 5, "\(list.stdout)")
    }

    @Test("a server error about a habit names it as typed, not only by the id the server knows it by")
    func serverErrorsNameTheHabit() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        #expect(try cli.run(["habit", "add", "Read 20 pages", "--date", "2025-06-01"]).status == 0)
        #expect(try cli.run(["habit", "add", "Read"]).status == 0)  // from --as-of, 2025-06-15
        let cases: [([String], String)] = [
            (["done", "read", "--date", "2025-06-14"], "'Read' (#2) is not active on 2025-06-14"),
            (["done", "read", "read 20", "--date", "2025-06-14"], "'Read' (#2) is not active on 2025-06-14"),
            (["skip", "read", "--date", "2025-06-14"], "'Read' (#2) is not active on 2025-06-14"),
            (["habit", "archive", "read", "--date", "2025-06-01"], "'Read' (#2)"),
            (["habit", "unarchive", "read"], "'Read' (#2) is not archived"),
        ]
        for (arguments, message) in cases {
            let output = try cli.run(arguments)
            #expect(output.status == 65, "\(arguments): \(output.status) \(output.stdout)")
            #expect(output.stderr.contains(message), "\(arguments): \(output.stderr)")
            #expect(!output.stderr.contains("habit 2 "), "\(arguments): \(output.stderr)")
        }
    }

    @Test func aSampleThatWouldReuseAHabitStartingTooLateAddsNothing() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        #expect(try cli.run(["habit", "add", "Meditate"]).status == 0)
        let refused = try cli.run(["sample", "--seed", "7", "--yes"])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("your habit of that name starts on"), "\(refused.stderr)")
        let list = try cli.run(["habit", "list", "--all", "--json"])
        #expect(list.stdout.components(separatedBy: "\"name\"").count == 2, "nothing added: \(list.stdout)")
        // A habit of a sample name that starts early enough is reused.
        #expect(try cli.run(["habit", "rename", "Meditate", "Sit"]).status == 0)
        #expect(try cli.run(["habit", "add", "Meditate", "--date", "-400"]).status == 0)
        let added = try cli.run(["sample", "--seed", "7", "--yes"])
        #expect(added.status == 0, "\(added.stderr)")
        let again = try cli.run(["sample", "--seed", "7", "--yes"])
        #expect(again.stdout.contains(" sample completions for 5 habits up to "), "\(again.stdout)")
        #expect(again.stdout.contains("were recorded already"), "a second run adds nothing: \(again.stdout)")
    }

    @Test func aNameThatTwinsHaveIsAnErrorListingTheirIds() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        let file = ServerProcess.temporaryDirectory(prefix: "streak-twins").appendingPathComponent("twins.json")
        try """
        {"format": "streakd-export", "version": 1, "habits": [
        {"name": "Read", "created_on": "2025-06-01"}, {"name": "Read", "created_on": "2025-06-01"}]}
        """.write(to: file, atomically: true, encoding: .utf8)
        #expect(try cli.run(["import", file.path]).status == 0)
        for text in ["Read", "read"] {
            let output = try cli.run(["done", text])
            #expect(output.status == 65, "\(text): \(output.status) \(output.stdout)")
            #expect(
                output.stderr.contains("2 habits: #1 'Read', #2 'Read'; give the id of the one you mean instead"),
                "\(text): \(output.stderr)"
            )
        }
        let byID = try cli.run(["done", "2", "--json"])
        #expect(byID.status == 0, "\(byID.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(byID.stdout.utf8)) as? [String: Any]
        #expect(json?["habit_ids"] as? [Int] == [2], "\(byID.stdout)")
    }
}
