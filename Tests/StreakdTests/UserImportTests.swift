import Foundation
import StreakTestSupport
import StreakWire
import Testing

/// `streakd user import FILE`: many users in one transaction beside a running server.
@Suite struct UserImportTests {
    /// A names file: a comment, blank lines, spaces and a carriage return around names.
    static func namesFile(_ names: [String], in directory: URL, as fileName: String = "names.txt") throws -> String {
        let text =
            "# new users\n\n" + names.enumerated().map { $1 + ($0 % 3 == 0 ? "  \r" : "") }.joined(separator: "\n")
            + "\n"
        let path = directory.appendingPathComponent(fileName).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The "NAME TOKEN" lines of an import's output.
    static func tokens(_ output: String) -> [(name: String, token: String)] {
        output.split(separator: "\n").map { line in
            let parts = line.split(separator: " ")
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
    }

    /// Whether `token` authenticates with the server behind `connection`.
    static func authenticates(_ token: String, on connection: TestConnection) throws -> Bool {
        try connection.status(of: .listHabits, WireListHabitsRequest(), token: token).code == .ok
    }

    static func userNames(_ arguments: [String]) throws -> [String] {
        try ServerProcess.run(["user", "list"] + arguments).output.split(separator: "\n").map {
            String($0.split(separator: "\t")[0])
        }
    }

    @Test("users are created from a file, their tokens work at once, the output file is mode 0600")
    func importsBesideARunningServer() throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let directory = harness.server.dataDirectory
        let names = (0..<300).map { "member-\($0)" } + ["Zoë", #"quote"d"#]
        let file = try Self.namesFile(names, in: directory)
        let out = directory.appendingPathComponent("tokens.txt").path

        let run = try ServerProcess.run(["user", "import", file, "--data-dir", directory.path, "-o", out])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.isEmpty)
        #expect(run.error.contains("created \(names.count) users"), "\(run.error)")
        let attributes = try FileManager.default.attributesOfItem(atPath: out)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let lines = Self.tokens(try String(contentsOfFile: out, encoding: .utf8))
        #expect(lines.map(\.name) == names)
        #expect(Set(lines.map(\.token)).count == names.count)
        for (_, token) in lines {
            #expect(try Self.authenticates(token, on: harness.connection))
        }
        #expect(try Self.userNames(["--data-dir", directory.path]) == ["local"] + names)

        // Without -o the lines go to standard output.
        let more = try Self.namesFile(["late-1", "late-2"], in: directory, as: "more.txt")
        let printed = try ServerProcess.run(["user", "import", more, "--data-dir", directory.path])
        #expect(printed.status == 0, "\(printed.error)")
        let printedLines = Self.tokens(printed.output)
        #expect(printedLines.map(\.name) == ["late-1", "late-2"])
        #expect(try Self.authenticates(printedLines[1].token, on: harness.connection))

        // An existing output file is refused before anything is created, and kept.
        let again = try Self.namesFile(["later"], in: directory, as: "again.txt")
        let refused = try ServerProcess.run(["user", "import", again, "--data-dir", directory.path, "-o", out])
        #expect(refused.status == 1)
        #expect(refused.error.contains("cannot create \(out): it already exists"), "\(refused.error)")
        #expect(Self.tokens(try String(contentsOfFile: out, encoding: .utf8)).count == names.count)
        #expect(!(try Self.userNames(["--data-dir", directory.path])).contains("later"))
    }

    @Test(
        "a duplicate, an existing or an invalid name fails the whole import with FILE:LINE, writing nothing",
        arguments: [
            (["ann", "bob", "ann"], 5, "ann: the user name is already on line 3"),
            (["ann", "bob", "local"], 5, "local: a user with that name already exists"),
            (["ann", "two words", "bob"], 4, "a user name is 1 to 64 characters"),
            (["ann", String(repeating: "x", count: 65)], 4, "a user name is 1 to 64 characters"),
        ]
    )
    func refusals(names: [String], line: Int, message: String) throws {
        let harness = try ServerHarness()
        defer { harness.finish() }
        let directory = harness.server.dataDirectory
        let file = try Self.namesFile(names, in: directory)
        let out = directory.appendingPathComponent("tokens.txt").path
        let run = try ServerProcess.run(["user", "import", file, "--data-dir", directory.path, "-o", out])
        #expect(run.status == 1)
        #expect(run.error.contains("streakd: \(file):\(line): \(message)"), "\(run.error)")
        #expect(run.output.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try Self.userNames(["--data-dir", directory.path]) == ["local"])
    }

    @Test(
        "on PostgreSQL: users are created in one transaction, tokens work on a server, a duplicate fails with FILE:LINE",
        .enabled(if: PostgresTestDatabase.serverURL != nil || PostgresTestDatabase.required)
    )
    func postgres() throws {
        let database = try PostgresTestDatabase()
        let server = try ServerProcess.start(extraArguments: ["--database-url", database.url])
        defer {
            server.stop()
            server.removeDataDirectory()
        }
        let directory = server.dataDirectory
        let names = (0..<12_000).map { "pg-\($0)" } + ["Zoë", #"back\slash"#, "{brace,comma}", "NULL"]
        let file = try Self.namesFile(names, in: directory)
        let out = directory.appendingPathComponent("tokens.txt").path
        let run = try ServerProcess.run(["user", "import", file, "--database-url", database.url, "-o", out])
        #expect(run.status == 0, "\(run.error)")
        let lines = Self.tokens(try String(contentsOfFile: out, encoding: .utf8))
        #expect(lines.map(\.name) == names)
        let connection = try server.connect()
        for index in [0, 5_000, 11_999, 12_000, 12_001, 12_002, 12_003] {
            #expect(try Self.authenticates(lines[index].token, on: connection), "\(lines[index].name)")
        }
        #expect(try Self.userNames(["--database-url", database.url]).count == names.count + 1)

        let clash = try Self.namesFile(["fresh-1", "fresh-2", "pg-7000"], in: directory, as: "clash.txt")
        let failed = try ServerProcess.run(["user", "import", clash, "--database-url", database.url])
        #expect(failed.status == 1)
        #expect(failed.error.contains("\(clash):5: pg-7000: a user with that name already exists"), "\(failed.error)")
        #expect(!(try Self.userNames(["--database-url", database.url])).contains("fresh-1"))
    }
}
