import Foundation
import StreakTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `streak watch` subscribes again when streakd restarts under it.
@Suite("streak watch across a server restart", .serialized)
struct CLIWatchRestartTests {
    @Test(.timeLimit(.minutes(2)))
    func cliWatchSurvivesARestart() throws {
        let first = try ServerProcess.start()
        defer { first.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(first.port)", token: first.token)
        #expect(try cli.run(["habit", "add", "Walk", "--date", "2025-01-01"]).status == 0)
        let watch = Process()
        watch.executableURL = CLIRunner.binaryURL
        watch.arguments = [
            "--server", cli.server, "--token", cli.token ?? "", "--as-of", cli.asOf, "--json", "watch", "--count", "2",
        ]
        let output = OutputCollector()
        let errors = OutputCollector()
        watch.standardOutput = output.pipe
        watch.standardError = errors.pipe
        watch.standardInput = FileHandle.nullDevice
        try watch.run()
        output.start()
        errors.start()
        defer { if watch.isRunning { watch.terminate() } }

        try Self.record(with: cli, month: "02", until: 1, in: output)
        #expect(first.stop() == 0)
        let second = try ServerProcess.start(dataDirectory: first.dataDirectory, port: first.port)
        defer { second.stop() }
        try Self.record(with: cli, month: "03", until: 2, in: output)

        watch.waitUntilExit()
        #expect(watch.terminationStatus == 0, "\(errors.text)")
        #expect(errors.text.contains("reconnected to streakd at 127.0.0.1:\(first.port)"), "\(errors.text)")
        let days = output.lines.compactMap { line -> String? in
            let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return (event?["day"] as? [String: Any])?["date"] as? String
        }
        #expect(days.count == 2)
        #expect(days.first?.hasPrefix("2025-02-") == true)
        #expect(days.last?.hasPrefix("2025-03-") == true)
    }

    /// Runs `streak done Walk --date 2025-MM-DD` for one day after another until the watcher
    /// printed `lines` lines (at most 200 runs).
    static func record(with cli: CLIRunner, month: String, until lines: Int, in output: OutputCollector) throws {
        for offset in 0..<200 where output.lines.count < lines {
            _ = try cli.run(["done", "Walk", "--date", String(format: "2025-\(month)-%02d", offset % 28 + 1)])
            usleep(50_000)
        }
        try #require(output.lines.count >= lines, "the watcher printed \(output.lines) for month \(month)")
    }
}

/// Reads a child process's output on a thread as it comes, so a test can wait for lines.
final class OutputCollector: @unchecked Sendable {
    let pipe = Pipe()
    private let lock = NSLock()
    private var data = Data()

    /// Starts reading (after the process started, so that the child holds the write end).
    func start() {
        let handle = pipe.fileHandleForReading
        Thread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { return }
                lock.withLock { data.append(chunk) }
            }
        }.start()
    }

    /// Everything read so far.
    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }

    /// The complete lines read so far.
    var lines: [String] {
        let text = text
        guard let end = text.lastIndex(of: "\n") else { return [] }
        return text[..<end].split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
}
