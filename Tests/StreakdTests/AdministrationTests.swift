import Foundation
import StreakFraming
import StreakTestSupport
import StreakWire
import Testing

/// One server per data directory; `streakd user ...` beside a running server.
@Suite struct AdministrationTests {
    @Test func aSecondServerOnTheSameDataDirectoryIsRefused() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let directory = harness.server.dataDirectory.path
        let second = try ServerProcess.run(["--port", "0", "--data-dir", directory], timeout: .seconds(30))
        #expect(second.status != 0 && second.status != 9 + 128, "the second streakd ran: \(second)")
        #expect(second.error.contains("already serving the data directory \(directory)"), "\(second.error)")
        #expect(!second.output.contains("listening"))
        #expect(try harness.status(.listHabits, WireListHabitsRequest()).code == .ok)

        // Once the first one stopped, the directory is free again.
        #expect(harness.server.stop() == 0)
        let next = try ServerProcess.start(dataDirectory: harness.server.dataDirectory)
        #expect(try next.connect().status(of: .listHabits, WireListHabitsRequest(), token: harness.token).code == .ok)
        #expect(next.stop() == 0)
    }

    @Test func userCommandsWorkWhileTheServerRuns() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let directory = harness.server.dataDirectory.path
        let add = try ServerProcess.run(["user", "add", "dave", "--data-dir", directory])
        #expect(add.status == 0, "\(add.error)")
        let dave = add.output.trimmingCharacters(in: .whitespacesAndNewlines)
        // The running server finds the new user in the store on the first use of its token.
        let created: WireCreateHabitResponse = try harness.connection.call(
            .createHabit,
            WireCreateHabitRequest.with {
                $0.name = "walk"
                $0.createdOn = day("2024-01-01")
            },
            token: dave
        )
        #expect(created.habit?.name == "walk")
        let list = try ServerProcess.run(["user", "list", "--data-dir", directory])
        #expect(list.status == 0 && list.output.contains("dave\t") && list.output.contains("active"))

        let revoke = try ServerProcess.run(["user", "revoke", "dave", "--data-dir", directory])
        #expect(revoke.status == 0, "\(revoke.error)")
        var status = Status.ok
        for _ in 0..<100 {
            status = try harness.connection.status(of: .listHabits, WireListHabitsRequest(), token: dave)
            if status.code == .unauthenticated { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(status.code == .unauthenticated)
        let after = try ServerProcess.run(["user", "list", "--data-dir", directory])
        #expect(after.output.split(separator: "\n").contains { $0.hasPrefix("dave\t") && $0.hasSuffix("revoked") })
        #expect(try harness.status(.listHabits, WireListHabitsRequest()).code == .ok)
    }

    @Test("user list and revoke refuse a data directory without a database; user add creates one and says so")
    func missingDatabase() throws {
        let parent = ServerProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: parent) }
        let directory = parent.appendingPathComponent("mistyped").path
        let database = directory + "/streakd.sqlite3"
        for arguments in [["user", "list"], ["user", "revoke", "dave"]] {
            let result = try ServerProcess.run(arguments + ["--data-dir", directory])
            #expect(result.status == 1, "\(arguments): \(result)")
            #expect(result.error.contains("there is no database at \(database) (is --data-dir"), "\(result.error)")
            #expect(!FileManager.default.fileExists(atPath: directory), "\(arguments) created \(directory)")
        }
        let add = try ServerProcess.run(["user", "add", "dave", "--data-dir", directory])
        #expect(add.status == 0, "\(add.error)")
        #expect(add.output.hasPrefix("stk_") && add.output.split(separator: "\n").count == 1, "\(add.output)")
        #expect(add.error.contains("created a new store at \(database)"), "\(add.error)")
        let second = try ServerProcess.run(["user", "add", "erin", "--data-dir", directory])
        #expect(second.status == 0 && second.error.isEmpty, "\(second.error)")
        let list = try ServerProcess.run(["user", "list", "--data-dir", directory])
        #expect(list.status == 0 && list.output.contains("dave\t") && list.output.contains("erin\t"), "\(list)")
    }

    @Test("revoking a user already revoked says so and changes nothing")
    func revokeTwice() throws {
        let directory = ServerProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try ServerProcess.run(["user", "add", "dave", "--data-dir", directory.path]).status == 0)
        let first = try ServerProcess.run(["user", "revoke", "dave", "--data-dir", directory.path])
        #expect(first.status == 0 && first.output.isEmpty && first.error.isEmpty, "\(first)")
        let again = try ServerProcess.run(["user", "revoke", "dave", "--data-dir", directory.path])
        #expect(again.status == 0, "\(again)")
        #expect(again.error == "streakd: dave was already revoked; nothing changed\n", "\(again.error)")
        let unknown = try ServerProcess.run(["user", "revoke", "nobody", "--data-dir", directory.path])
        #expect(unknown.status == 1 && unknown.error.contains("no user with that name"), "\(unknown)")
    }
}
