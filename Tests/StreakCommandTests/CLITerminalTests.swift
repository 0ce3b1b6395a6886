import Foundation
import StreakTestSupport
import Testing

/// `streak` with its standard output on a pseudo-terminal, as a person runs it: colour by
/// default, none with NO_COLOR. The terminal comes from util-linux's `script` (in Debian's
/// essential bsdutils package).
@Suite("streak on a terminal", .serialized)
struct CLITerminalTests {
    static let script = URL(fileURLWithPath: "/usr/bin/script")

    /// Runs `streak ARGUMENTS` under `script -qec`, which gives it a pseudo-terminal for its
    /// standard streams and copies what it printed to our pipe.
    static func runOnTerminal(_ arguments: [String], environment: [String: String]) throws -> CLIRunner.Output {
        let command = ([CLIRunner.binaryURL.path] + arguments).map(shellQuoted).joined(separator: " ")
        let process = Process()
        process.executableURL = script
        process.arguments = ["-q", "-e", "-c", command, "/dev/null"]
        var base = ProcessInfo.processInfo.environment
        for key in ["STREAK_SERVER", "STREAK_TOKEN", "NO_COLOR", "STREAKD_DATA_DIR", "XDG_DATA_HOME"] {
            base[key] = nil
        }
        base["TERM"] = "xterm-256color"  // CI may have no TERM, or TERM=dumb, which means no colour
        process.environment = base.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIRunner.Output(
            status: process.terminationStatus,
            stdout: String(decoding: data, as: UTF8.self),
            stderr: ""
        )
    }

    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    @Test func colourOnATerminalUnlessNoColor() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.script.path),
            "needs \(Self.script.path) (Debian: bsdutils)"
        )
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        #expect(try cli.run(["sample", "--seed", "7", "--habits", "2"]).status == 0)
        let global = ["--server", cli.server, "--token", cli.token ?? "", "--as-of", cli.asOf]
        for command in [["heatmap"], ["streak"], ["calendar"]] {
            let coloured = try Self.runOnTerminal(global + command, environment: [:])
            #expect(coloured.status == 0, "\(command): \(coloured.stdout)")
            #expect(coloured.stdout.contains("\u{1B}["), "\(command) on a terminal printed no ANSI escape")

            let plain = try Self.runOnTerminal(global + command, environment: ["NO_COLOR": "1"])
            #expect(plain.status == 0, "\(command) with NO_COLOR: \(plain.stdout)")
            #expect(!plain.stdout.utf8.contains(0x1B), "\(command) with NO_COLOR printed escapes")
            #expect(!plain.stdout.isEmpty)

            // The same command on a pipe (no terminal): no escapes either.
            let piped = try cli.run(command)
            #expect(!piped.stdout.utf8.contains(0x1B), "\(command) on a pipe printed escapes")
        }
    }
}
