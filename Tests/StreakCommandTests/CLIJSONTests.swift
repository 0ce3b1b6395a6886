import Foundation
import StreakFraming
import StreakTestSupport
import Testing

@Suite("streak --json against a real streakd", .serialized)
struct CLIJSONTests {
    private func json(_ output: CLIRunner.Output) throws -> [String: Any] {
        #expect(output.status == 0, "\(output.stderr)")
        return try #require(JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
    }

    @Test func shapesParseAndAgree() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        let sample = try json(try cli.run(["--json", "sample", "--seed", "11"]))
        let habits = try #require(sample["habits"] as? [[String: Any]])
        #expect(habits.count == 5)
        #expect((sample["changed"] as? Int) == (sample["completions"] as? Int))

        let list = try json(try cli.run(["habit", "list", "--json"]))
        #expect(
            (list["habits"] as? [[String: Any]])?.map { $0["name"] as? String } == habits.map { $0["name"] as? String }
        )

        let streak = try json(try cli.run(["--json", "streak"]))
        let current = try #require(streak["current"] as? Int)
        #expect(current >= 12)
        #expect(streak["as_of"] as? String == "2025-06-15")
        let text = try cli.run(["streak"]).stdout
        #expect(text.hasPrefix("\(current) days"))

        let heatmap = try json(try cli.run(["--json", "heatmap"]))
        #expect(heatmap["from"] as? String == "2024-07-01")
        #expect(heatmap["to"] as? String == "2025-06-15")
        let weeks = try #require(heatmap["weeks"] as? [[String: Any]])
        #expect(weeks.count >= 50)
        #expect(weeks.allSatisfy { ($0["cells"] as? [Any])?.count == 7 })
        let labels = try #require(heatmap["month_labels"] as? [[String: Any]])
        #expect(labels.first?["label"] as? String == "Jul")

        let day = try json(try cli.run(["--json", "day", "2025-06-15"]))
        #expect((day["completed"] as? Int ?? 0) >= 1)
        #expect(day["contributing"] as? Bool == true)

        let page = try json(try cli.run(["--json", "calendar", "2025-02"]))
        #expect((page["days"] as? [Any])?.count == 42)
        #expect(page["next"] as? String == "2025-03")

        let chart = try json(try cli.run(["--json", "weekdays"]))
        let series = try #require(chart["series"] as? [[String: Any]])
        #expect(series.count == 6)
        #expect(series.allSatisfy { ($0["counts"] as? [Any])?.count == 7 })

        let done = try json(try cli.run(["--json", "done", "Journal", "--date", "2025-06-15"]))
        #expect(done["day"] is [String: Any])
        #expect(done["streak"] is [String: Any])

        let undo = try json(try cli.run(["--json", "undo", "Journal", "--date", "2025-06-15"]))
        #expect(undo["changed"] as? Bool == true)
        let undoneDay = try #require(undo["day"] as? [String: Any])
        #expect(undoneDay["date"] as? String == "2025-06-15")
        let doneDay = try #require(done["day"] as? [String: Any])
        #expect((undoneDay["completed"] as? Int).map { $0 + 1 } == (doneDay["completed"] as? Int))
        #expect((undo["streak"] as? [String: Any])?["as_of"] as? String == "2025-06-15")
        let undoAgain = try json(try cli.run(["--json", "undo", "Journal", "--date", "2025-06-15"]))
        #expect(undoAgain["changed"] as? Bool == false)

        let settings = try json(try cli.run(["--json", "settings", "--min-percent", "50"]))
        #expect(settings["min_percent"] as? Int == 50)
    }

    @Test("streak server: what GetServerInfo says, as text and JSON; a healthy SQLite store's upkeep works")
    func serverInfo() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        #expect(try cli.run(["habit", "add", "Read"]).status == 0)

        let info = try json(try cli.run(["--json", "server"]))
        #expect(info["storage"] as? String == "sqlite")
        #expect(info["protocol_version"] as? Int == 1)
        #expect(info["users_held"] as? Int == 1, "the user of the habit just added: \(info)")
        #expect(info["user_memory_budget_bytes"] as? Int == 256 << 20)
        #expect((info["storage_upkeep_failing"] as? [Any])?.isEmpty == true, "\(info)")
        #expect(info.count == 15, "\(info.keys.sorted())")

        // One release number: the server's answer, `streakd --version` and `streak --version`.
        let version = try #require(info["version"] as? String)
        #expect(version.split(separator: ".").count == 3 && version.allSatisfy { $0.isNumber || $0 == "." })
        #expect(try ServerProcess.run(["--version"]).output == version + "\n")
        #expect(try cli.run(["--version"]).stdout == version + "\n")

        let text = try cli.run(["server"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("storage:       sqlite\n"), "\(text.stdout)")
        #expect(text.stdout.hasSuffix("upkeep:        working\n"), "\(text.stdout)")
    }

    @Test func habitCommandsPrintTheHabit() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        let keys = ["id", "name", "created_on", "archived_on", "schedule"]

        let added = try json(try cli.run(["--json", "habit", "add", "Swim", "--date", "2025-05-01"]))
        #expect(added.keys.sorted() == ["habit"])
        let habit = try #require(added["habit"] as? [String: Any])
        #expect(habit.keys.sorted() == keys.sorted())
        let id = try #require(habit["id"] as? Int)
        #expect(habit["name"] as? String == "Swim")
        #expect(habit["created_on"] as? String == "2025-05-01")
        #expect(habit["archived_on"] is NSNull)
        #expect((habit["schedule"] as? [Any])?.isEmpty == true)

        // Without --date: created on --as-of.
        let second = try json(try cli.run(["--json", "habit", "add", "Cycle"]))
        #expect((second["habit"] as? [String: Any])?["created_on"] as? String == "2025-06-15")

        let renamed = try json(try cli.run(["--json", "habit", "rename", "swim", "Swim 1 km"]))
        let renamedHabit = try #require(renamed["habit"] as? [String: Any])
        #expect(renamedHabit["id"] as? Int == id)
        #expect(renamedHabit["name"] as? String == "Swim 1 km")
        #expect(renamedHabit["created_on"] as? String == "2025-05-01")

        let archived = try json(try cli.run(["--json", "habit", "archive", String(id), "--date", "2025-06-01"]))
        let archivedHabit = try #require(archived["habit"] as? [String: Any])
        #expect(archivedHabit["id"] as? Int == id)
        #expect(archivedHabit["archived_on"] as? String == "2025-06-01")

        let live = try json(try cli.run(["--json", "habit", "list"]))
        #expect((live["habits"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Cycle"])
        let all = try json(try cli.run(["--json", "habit", "list", "--all"]))
        #expect((all["habits"] as? [[String: Any]])?.count == 2)

        let tooLong = try cli.run(["habit", "add", String(repeating: "x", count: 201)])
        #expect(tooLong.status == 65, "\(tooLong.stderr)")
        #expect(tooLong.stdout.isEmpty)
    }

    @Test func errorsHaveMessagesAndExitCodes() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)

        let badDate = try cli.run(["day", "2024-02-30"])
        #expect(badDate.status == 65)
        #expect(badDate.stderr.contains("2024-02-30 does not exist"))

        let unknown = try cli.run(["done", "Juggling"])
        #expect(unknown.status == 65)
        #expect(unknown.stderr.contains("no habit named 'Juggling'"))

        let usage = try cli.run(["heatmap", "--bogus"])
        #expect(usage.status == 64)

        let badToken = try CLIRunner(server: cli.server, token: "stk_" + String(repeating: "0", count: 64)).run([
            "streak"
        ])
        #expect(badToken.status == 77)

        // Bound but not listening, and kept bound: no test running in parallel can listen there.
        let closed = try ReservedPort()
        let refused = try CLIRunner(server: "127.0.0.1:\(closed.port)", token: "x").run(["streak"])
        #expect(refused.status == 69)
        #expect(refused.stderr.contains("cannot reach streakd at 127.0.0.1:\(closed.port) (connection refused)"))
        #expect(refused.stderr.contains("start it with scripts/run (or streakd), or name a running one with --server"))
        #expect(refused.stdout.isEmpty)
        let refusedByName = try CLIRunner(server: "localhost:\(closed.port)", token: "x").run(["streak"])
        #expect(refusedByName.status == 69)
        #expect(refusedByName.stderr.contains("start it with scripts/run"), "\(refusedByName.stderr)")

        // A name that cannot resolve (glibc rejects it without asking DNS): no local server would help.
        // (With TLS: a token in clear to another machine is refused before any name is resolved.)
        let unresolvable = try CLIRunner(server: "no-such-host!:7411", token: "x").run(["--tls", "streak"])
        #expect(unresolvable.status == 69)
        #expect(unresolvable.stderr.contains("cannot resolve no-such-host!"), "\(unresolvable.stderr)")
        #expect(!unresolvable.stderr.contains("scripts/run"), "\(unresolvable.stderr)")
    }

    @Test(
        arguments: [
            (["--server", "127.0.0.1:http"], [:], "--server: bad port 'http'"),
            (["--server", "127.0.0.1:70000"], [:], "--server: bad port '70000'"),
            (["--server", "[::1"], [:], "--server: bad server address '[::1'"),
            ([], ["STREAK_SERVER": "localhost:"], "STREAK_SERVER: bad port ''"),
            // The library's parser is the CLI's: white space and an unbracketed IPv6 address are refused.
            (["--server", "no such host:7411"], [:], "--server: 'no such host:7411' has white space"),
            (["--server", "::1"], [:], "--server: '::1' has more than one ':'"),
            ([], ["STREAK_SERVER": "127.0.0.1:0"], "STREAK_SERVER: bad port '0'"),
        ] as [([String], [String: String], String)]
    )
    func malformedServerIsAUsageError(arguments: [String], environment: [String: String], message: String) throws {
        let output = try CLIRunner.run(arguments + ["--token", "x", "streak"], environment: environment)
        #expect(output.status == 64, "\(output.stderr)")
        #expect(output.stderr.hasPrefix("streak: \(message)"), "\(output.stderr)")
        #expect(output.stderr.contains(#/expected \[?HOST\]?:PORT/#), "\(output.stderr)")
        #expect(output.stdout.isEmpty)
    }

    /// 70 and 75 come from statuses a healthy streakd does not send on demand: a scripted stand-in sends them.
    @Test(arguments: [
        (Status(.internal, "the database is on fire"), Int32(70), "INTERNAL: the database is on fire"),
        (Status(.unimplemented, "unknown method"), Int32(70), "UNIMPLEMENTED: unknown method"),
        (Status(.deadlineExceeded, "deadline exceeded (server)"), Int32(75), "deadline exceeded (server)"),
    ])
    func serverErrorsAndDeadlinesHaveTheirExitCodes(status: Status, code: Int32, message: String) throws {
        let server = try FakeServer { _, frame, peer in
            guard case .request(let id, _, _, _) = frame else { return }
            peer.send(.response(id: id, status: status, message: []))
        }
        defer { server.stop() }
        let output = try CLIRunner(server: "127.0.0.1:\(server.port)", token: "x").run(["streak"])
        #expect(output.status == code, "\(output.stderr)")
        #expect(output.stderr == "streak: \(message)\n")
        #expect(output.stdout.isEmpty)
    }

    @Test func watchPrintsOneJSONLinePerChange() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        #expect(try cli.run(["habit", "add", "Walk", "--date", "2025-01-01"]).status == 0)
        let watch = Process()
        watch.executableURL = CLIRunner.binaryURL
        watch.arguments = [
            "--server", cli.server, "--token", cli.token ?? "", "--as-of", cli.asOf, "--json", "watch", "--count", "1",
        ]
        let output = Pipe()
        watch.standardOutput = output
        watch.standardError = FileHandle.nullDevice
        try watch.run()
        defer { if watch.isRunning { watch.terminate() } }
        // The server registers the watch asynchronously: record days until the watcher has its event (bounded).
        for offset in 0..<100 where watch.isRunning {
            let day = String(format: "2025-02-%02d", offset % 28 + 1)
            _ = try cli.run(["done", "Walk", "--date", day])
            usleep(30_000)
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        watch.waitUntilExit()
        #expect(watch.terminationStatus == 0)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 1)
        let event = try #require(
            JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: Any]
        )
        #expect((event["day"] as? [String: Any])?["completed"] as? Int == 1)
        #expect((event["streak"] as? [String: Any])?["as_of"] as? String == "2025-06-15")
    }
}
