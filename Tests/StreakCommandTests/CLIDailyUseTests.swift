import Foundation
import StreakTestSupport
import Testing

/// `streak` for the daily loop, against a real streakd: the today view, several habits at once,
/// relative dates, and the rough edges a new user hit (each case failed before it was fixed).
@Suite("streak for daily use", .serialized)
struct CLIDailyUseTests {
    /// Name, arguments, expected exit status. The sample year (seed 7) as of 2025-06-15.
    static let goldenCases: [(String, [String], Int32)] = [
        ("today", [], 0),
        ("today-yesterday", ["today", "--date", "yesterday"], 0),
        ("day-today", ["day"], 0),
        ("done-several", ["done", "med", "read", "--date", "-2"], 0),
        ("today-after-done", ["--date", "2025-06-13"], 0),
        ("undo-several", ["undo", "Meditate", "Read 20 pages", "--date", "2025-06-13"], 0),
        ("calendar-year", ["calendar", "2025"], 0),
    ]

    @Test func dailyViewsMatchGoldenFiles() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        #expect(try cli.run(["sample", "--seed", "7"]).status == 0)
        for (name, arguments, status) in Self.goldenCases {
            let output = try cli.run(arguments)
            #expect(output.status == status, "streak \(arguments): \(output.stderr)")
            Self.compare(name, output.stdout)
        }
    }

    @Test func wideNamesAndFutureArchivesInTheHabitList() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        for name in ["Read", "🏃 Run", "読書", "Cafe\u{301} au lait", "Stretch"] {
            #expect(try cli.run(["habit", "add", name, "--date", "2025-06-01"]).status == 0)
        }
        // Archived from a later day: still live today, so still listed (and counted).
        #expect(try cli.run(["habit", "archive", "Stretch", "--date", "2025-07-01"]).status == 0)
        let list = try cli.run(["habit", "list"])
        #expect(list.status == 0, "\(list.stderr)")
        Self.compare("habit-list-wide", list.stdout)
        let today = try cli.run([])
        #expect(today.stdout.contains("Stretch"), "\(today.stdout)")
    }

    @Test func roughEdgesAreErrorsWithClearMessages() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        #expect(try cli.run(["habit", "add", "Read", "--date", "2025-06-01"]).status == 0)

        // (arguments, status, a phrase stderr must contain)
        let cases: [([String], Int32, String)] = [
            (["habit", "add", "   "], 65, "not white space"),
            (["settings", "--min-percent", "50", "--clear-min-percent"], 64, "contradict"),
            (["habit", "remove", "Read"], 64, "'remove' is not a streak habit command"),
            (["--habit", "Read", "streak"], 64, "'--habit Read' goes after the command: streak streak --habit Read"),
            (["heatmp"], 64, "did you mean 'heatmap'?"),
            (["watch", "--count", "0"], 64, "--count must be 1 or more"),
            (["--token", "", "streak"], 64, "--token is empty"),
            (["done", "Read", "--date", "2025-06-16"], 65, "is in the future"),
            (["done", "Read", "--date", "2025-02-29"], 65, "2025-02-29"),
            (["calendar", "2025-13"], 65, "calendar '2025-13'"),
            (["done", "Re", "--date", "tomorrow"], 65, "yesterday, -N"),
        ]
        for (arguments, status, phrase) in cases {
            let output = try cli.run(arguments)
            #expect(output.status == status, "streak \(arguments): \(output.stderr)")
            #expect(output.stderr.contains(phrase), "streak \(arguments): \(output.stderr)")
            #expect(!output.stderr.contains("Usage: streak habit list"), "\(output.stderr)")
        }
        // The day after today is fine once asked for, and the prefix 'Re' names Read.
        let future = try cli.run(["done", "Re", "--date", "2025-06-16", "--allow-future"])
        #expect(future.status == 0, "\(future.stderr)")
        // A name that is only a prefix of several habits is refused, naming them.
        #expect(try cli.run(["habit", "add", "Reading list", "--date", "2025-06-01"]).status == 0)
        let ambiguous = try cli.run(["done", "Rea"])
        #expect(ambiguous.status == 65 && ambiguous.stderr.contains("could be"), "\(ambiguous.stderr)")
    }

    @Test func aWriteErrorOnStandardOutputIsAnError() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        let process = Process()
        process.executableURL = CLIRunner.binaryURL
        process.arguments = ["--server", cli.server, "--token", cli.token ?? "", "--as-of", "2025-06-15", "heatmap"]
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 74)
    }

    @Test func localizedCalendarAndOneLanguageLabels() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        #expect(try cli.run(["sample", "--seed", "7", "--habits", "2"]).status == 0)
        #expect(try cli.run(["settings", "--locale", "zh_Hans_CN"]).status == 0)
        let calendar = try cli.run(["calendar", "2025-06"])
        #expect(calendar.status == 0, "\(calendar.stderr)")
        Self.compare("calendar-zh", calendar.stdout)
        #expect(try cli.run(["settings", "--locale", "fr_FR"]).status == 0)
        let day = try cli.run(["--json", "day", "2025-06-10"])
        #expect(day.stdout.contains("\"accessibility_label\": \"June 10: "), "\(day.stdout)")
    }

    @Test(
        "calendar headers tell the seven days apart in every locale, and --week-start takes a language",
        arguments: [
            // (locale, the header line of June 2025 in it)
            ("lv_LV", "pir otr tre cet pie ses svē"), ("pt_BR", "dom seg ter qua qui sex sáb"),
            ("he_IL", "א׳  ב׳  ג׳  ד׳  ה׳  ו׳  ש׳"), ("vi_VN", "T2  T3  T4  T5  T6  T7  CN"),
            ("id_ID", "Min Sen Sel Rab Kam Jum Sab"),
        ]
    )
    func localizedCalendarHeaders(locale: String, header: String) throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        #expect(try cli.run(["settings", "--locale", locale]).status == 0)
        let calendar = try cli.run(["calendar", "2025-06"])
        #expect(calendar.status == 0, "\(calendar.stderr)")
        let lines = calendar.stdout.split(separator: "\n").map(String.init)
        #expect(lines[1] == header, "\(calendar.stdout)")
        let year = try cli.run(["calendar", "2025"])
        #expect(year.stdout.contains(header), "\(year.stdout)")
    }

    @Test(
        "--week-start takes a language-only locale, and asks about two letters that are also a weekday",
        arguments: [
            ("de", "monday"), ("fa", "saturday"), ("ar", "saturday"), ("ja", "sunday"), ("zh_TW", "sunday"),
            ("de_DE", "monday"), ("mon", "monday"),
        ]
    )
    func weekStartLanguage(argument: String, weekStart: String) throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        let heatmap = try cli.run(["--json", "heatmap", "--from", "2025-03-01", "--week-start", argument])
        #expect(heatmap.status == 0, "\(heatmap.stderr)")
        #expect(heatmap.stdout.contains("\"week_start\": \"\(weekStart)\""), "\(heatmap.stdout)")
        #expect(try cli.run(["calendar", "--week-start", argument]).status == 0)
    }

    @Test func weekStartRefusals() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        let ambiguous = try cli.run(["heatmap", "--week-start", "fr"])
        #expect(ambiguous.status == 65)
        #expect(ambiguous.stderr.contains("(friday)"), "\(ambiguous.stderr)")
        let unknown = try cli.run(["heatmap", "--week-start", "funday"])
        #expect(unknown.status == 65)
        #expect(unknown.stderr.contains("is neither a weekday"), "\(unknown.stderr)")
    }

    @Test func aPeerThatNeverAnswersTimesOut() throws {
        // A listening socket nobody accepts on: the kernel completes the handshake, then silence.
        let silent = try SilentListener()
        let output = try CLIRunner.run(
            ["--server", "127.0.0.1:\(silent.port)", "--token", "x", "--timeout", "0.5", "streak"]
        )
        #expect(output.status == 75 || output.status == 69, "\(output.status) \(output.stderr)")
        #expect(!output.stderr.isEmpty)
        if output.status == 75 {
            // Which server did not answer, and the option that sets how long to wait.
            #expect(output.stderr.contains("no answer from streakd at 127.0.0.1:\(silent.port)"), "\(output.stderr)")
            #expect(output.stderr.contains("--timeout"), "\(output.stderr)")
        }
    }

    static func compare(_ name: String, _ actual: String) {
        do {
            if let expected = try Golden.expected(name, actual: actual) {
                #expect(actual == expected, "\(name) differs from Golden/\(name).txt:\n\(actual)")
            } else if !Golden.updating {
                Issue.record("missing Golden/\(name).txt; run with UPDATE_GOLDEN=1 and review")
            }
        } catch {
            Issue.record("\(name): \(error)")
        }
    }
}
