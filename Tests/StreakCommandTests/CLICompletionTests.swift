import Foundation
import StreakTestSupport
import Testing

/// `streak completions bash`, sourced into a real bash that completes a habit name through the
/// script's callback into `streak` (which asks streakd).
@Suite("streak shell completion")
struct CLICompletionTests {
    @Test func bashCompletesSubcommandsAndHabitNames() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        for name in ["Meditate", "Morning run", "Read"] {
            #expect(try cli.run(["habit", "add", name]).status == 0)
        }
        let script = try CLIRunner.run(["completions", "bash"])
        #expect(script.status == 0)
        let directory = ServerProcess.temporaryDirectory(prefix: "streak-completion")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("streak.bash")
        try script.stdout.write(to: file, atomically: true, encoding: .utf8)

        /// What bash offers for `line` (the cursor at its end), calling `_streak` with the
        /// arguments bash gives a completion function: the command, the word and the one before.
        func complete(_ line: String) throws -> [String] {
            let program = """
                source \(file.path)
                COMP_LINE=\(CLITerminalTests.shellQuoted(line)); COMP_POINT=${#COMP_LINE}
                read -ra COMP_WORDS <<< "$COMP_LINE"
                [[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
                COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
                _streak "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                printf '%s\\n' "${COMPREPLY[@]}"
                """
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", program]
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] =
                CLIRunner.binaryURL.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
            environment["STREAK_SERVER"] = cli.server
            environment["STREAK_TOKEN"] = cli.token
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        }

        #expect(try complete("streak heat").contains("heatmap"))
        let habits = try complete("streak done M")
        #expect(habits.contains("Meditate"), "\(habits)")
        #expect(habits.contains { $0.hasPrefix("Morning") }, "\(habits)")
        #expect(!habits.contains("Read"), "\(habits)")
        // In any case, as the resolver reads names (`streak done me` is Meditate).
        #expect(try complete("streak done me") == ["Meditate"])
        #expect(try complete("streak habit rename mo").first?.hasPrefix("Morning") == true)
        #expect(try complete("streak done x").isEmpty)
    }
}
