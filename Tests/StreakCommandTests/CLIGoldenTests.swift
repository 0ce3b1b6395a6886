import Foundation
import StreakTestSupport
import Testing

/// The built `streak` against a real streakd with sample data and a fixed --as-of.
@Suite("streak CLI golden files", .serialized)
struct CLIGoldenTests {
    /// Name, arguments. Order matters: `done`/`undo` and the `habit` changes come after the
    /// read-only views (README's picture is `heatmap` and `streak`).
    static let cases: [(String, [String])] = [
        ("sample", ["sample", "--seed", "7"]),
        ("habit-list", ["habit", "list"]),
        ("heatmap", ["heatmap"]),
        ("heatmap-sunday", ["heatmap", "--from", "2025-01-01", "--to", "2025-03-31", "--week-start", "sunday"]),
        ("heatmap-color", ["--color", "always", "heatmap", "--from", "2025-04-01"]),
        ("streak", ["streak"]),
        ("weekdays", ["weekdays", "--from", "2025-01-01"]),
        ("calendar", ["calendar", "2025-06"]),
        ("day", ["day", "2025-06-10"]),
        ("settings", ["settings"]),
        ("undo", ["undo", "Read 20 pages", "--date", "2025-06-14"]),
        ("done", ["done", "Read 20 pages", "--date", "2025-06-14"]),
        ("habit-add", ["habit", "add", "Swim", "--date", "2025-06-01"]),
        ("habit-rename", ["habit", "rename", "swim", "Swim 1 km"]),
        ("habit-archive", ["habit", "archive", "Swim 1 km", "--date", "2025-06-10"]),
        ("habit-list-all", ["habit", "list", "--all"]),
    ]

    @Test func outputsMatchGoldenFiles() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        for (name, arguments) in Self.cases {
            let output = try cli.run(arguments)
            #expect(output.status == 0, "streak \(arguments) failed: \(output.stderr)")
            if name.hasSuffix("-color") {
                #expect(output.stdout.contains("\u{1B}["), "--color always has no escapes")
            } else {
                #expect(!output.stdout.utf8.contains(0x1B), "\(name): escape bytes on a pipe")
            }
            if let expected = try Golden.expected(name, actual: output.stdout) {
                #expect(output.stdout == expected, "\(name) differs from Golden/\(name).txt")
            } else if !Golden.updating {
                Issue.record("missing Golden/\(name).txt; run with UPDATE_GOLDEN=1 and review")
            }
        }
    }

    @Test func noColorWinsOverAlways() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        _ = try cli.run(["sample", "--seed", "3", "--habits", "2"])
        for command in [["heatmap"], ["calendar"], ["streak"], ["weekdays"]] {
            let output = try cli.run(["--color", "always"] + command, environment: ["NO_COLOR": "1"])
            #expect(output.status == 0)
            #expect(!output.stdout.utf8.contains(0x1B), "\(command) printed escapes with NO_COLOR")
        }
    }
}
