import Foundation
import StreakTestSupport
import Testing

/// `streak heatmap` fits its terminal: the width from the terminal (TIOCGWINSZ), else COLUMNS,
/// else 80; the most recent weeks that fit; no line wider.
@Suite("streak heatmap fits the terminal", .serialized)
struct CLIWidthTests {
    /// Display columns: ANSI escape sequences take none; every character the heatmap prints takes one.
    static func displayWidth(_ line: Substring) -> Int {
        var width = 0
        var inEscape = false
        for character in line {
            if character == "\u{1B}" {
                inEscape = true
            } else if inEscape {
                if character.isLetter { inEscape = false }
            } else {
                width += 1
            }
        }
        return width
    }

    /// The words of a label row and the column each starts at (plain, one column a character).
    static func labels(in row: Substring) -> [(Int, String)] {
        var result: [(Int, String)] = []
        var column = 0
        for word in row.split(separator: " ", omittingEmptySubsequences: false) {
            if !word.isEmpty { result.append((column, String(word))) }
            column += word.count + 1
        }
        return result
    }

    static func lines(_ text: String) -> [Substring] {
        text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    @Test func atForty80And120And200Columns() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        #expect(try cli.run(["sample", "--seed", "7"]).status == 0)
        let whole = try cli.run(["heatmap"], environment: ["COLUMNS": "200"])
        let wholeRows = Self.lines(whole.stdout)
        // 2024-07-01 ... 2025-06-15 in Monday weeks: 50 columns.
        #expect(Self.displayWidth(wholeRows[1]) == 2 + 2 * 50 - 1)
        for width in [40, 80, 120, 200] {
            for colour in ["never", "always"] {
                let output = try cli.run(["--color", colour, "heatmap"], environment: ["COLUMNS": String(width)])
                #expect(output.status == 0, "\(output.stderr)")
                let rows = Self.lines(output.stdout)
                let widths = rows.map(Self.displayWidth)
                #expect(widths.allSatisfy { $0 <= width }, "\(width) columns, --color \(colour): \(widths)")
                let weeks = min(50, (width - 2) / 2)
                #expect(Self.displayWidth(rows[1]) == 2 + 2 * weeks - 1, "\(width): \(widths)")
                guard colour == "never" else { continue }
                // The most recent weeks: each row ends as the whole year's does.
                for row in 1...7 {
                    #expect(wholeRows[row].hasSuffix(rows[row].dropFirst(2)), "\(width): row \(row)")
                }
                // Every month the whole year labels in view keeps its label over its week (a month
                // cut at the left edge may label the first column only if that leaves room).
                let shift = 2 * (50 - weeks)
                for (column, label) in Self.labels(in: wholeRows[0]) where column - shift >= 2 {
                    #expect(
                        Self.labels(in: rows[0]).contains { $0 == (column - shift, label) },
                        "\(width): \(label) missing in \(rows[0])"
                    )
                }
            }
        }
        // Without COLUMNS on a pipe: 80.
        let unset = try cli.run(["heatmap"], environment: ["COLUMNS": ""])
        #expect(Self.lines(unset.stdout).map(Self.displayWidth).max() == 79)
    }

    @Test func theTerminalsOwnWidthWinsOverColumns() throws {
        let script = CLITerminalTests.script
        try #require(FileManager.default.isExecutableFile(atPath: script.path), "needs \(script.path)")
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        #expect(try cli.run(["sample", "--seed", "7"]).status == 0)
        let arguments =
            [CLIRunner.binaryURL.path, "--server", cli.server, "--token", cli.token ?? "", "--as-of", cli.asOf]
            + ["heatmap", "--theme", "light"]
        // A pseudo-terminal 60 columns wide, with COLUMNS saying 200.
        let command = "stty cols 60 rows 40; " + arguments.map(CLITerminalTests.shellQuoted).joined(separator: " ")
        let process = Process()
        process.executableURL = script
        process.arguments = ["-q", "-e", "-c", command, "/dev/null"]
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = nil
        environment["TERM"] = "xterm-256color"
        environment["COLUMNS"] = "200"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        let rows = text.replacingOccurrences(of: "\r", with: "").split(
            separator: "\n",
            omittingEmptySubsequences: false
        )
        #expect(rows.map(Self.displayWidth).max() == 59, "\(rows.map(Self.displayWidth))")
        // On a light terminal the empty day is the light grey.
        #expect(text.contains("\u{1B}[38;5;253m■"))
    }

    @Test func monthsPicksTheRange() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        #expect(try cli.run(["sample", "--seed", "7"]).status == 0)
        let two = try cli.run(["heatmap", "--months", "2"])
        #expect(two.status == 0, "\(two.stderr)")
        #expect(two.stdout.hasPrefix("  May       Jun\n"), "\(two.stdout)")
        // 2025-05-01 (a Thursday) ... 2025-06-15: seven Monday columns.
        #expect(Self.displayWidth(Self.lines(two.stdout)[1]) == 2 + 2 * 7 - 1)
    }
}
