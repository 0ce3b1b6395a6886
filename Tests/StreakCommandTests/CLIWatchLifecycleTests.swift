import Foundation
import StreakTestSupport
import Testing

/// `streak watch --lifecycle`: settings changes (and new days) come as lines of their own.
@Suite("streak watch --lifecycle")
struct CLIWatchLifecycleTests {
    @Test(.timeLimit(.minutes(2)))
    func settingsChangesComeAsLines() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        #expect(try cli.run(["habit", "add", "Walk", "--date", "2025-01-01"]).status == 0)
        let watch = Process()
        watch.executableURL = CLIRunner.binaryURL
        watch.arguments = [
            "--server", cli.server, "--token", cli.token ?? "", "--as-of", cli.asOf, "--json", "watch", "--lifecycle",
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

        // The watcher prints nothing when it is subscribed: change the threshold until it says so.
        for percent in 1...200 where output.lines.isEmpty {
            _ = try cli.run(["settings", "--min-percent", "\(percent % 100 + 1)"])
            usleep(50_000)
        }
        try #require(!output.lines.isEmpty, "\(errors.text)")
        func events() -> [[String: Any]] {
            output.lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
        for date in 1...28 where !events().contains(where: { $0["kind"] as? String == "day_changed" }) {
            _ = try cli.run(["done", "Walk", "--date", String(format: "2025-02-%02d", date)])
            usleep(50_000)
        }
        let seen = events()
        let settings = seen.prefix { $0["kind"] as? String == "settings_changed" }
        #expect(!settings.isEmpty && settings.allSatisfy { $0["day"] == nil && $0["streak"] != nil })
        let change = try #require(seen.dropFirst(settings.count).first, "\(output.lines)")
        #expect(change["kind"] as? String == "day_changed")
        #expect((change["day"] as? [String: Any])?["date"] as? String == "2025-02-01")
    }
}
