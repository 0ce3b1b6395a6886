import Foundation
import StreakTestSupport
import Testing

/// `done`, `undo`, `skip` and `unskip` print the day as `day` counts it (done of due).
@Suite("streak's day line after a change", .serialized)
struct CLIDayLineTests {
    @Test func theLineCountsDoneOfDueAndRestDaysAsDayDoes() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        // 2025-06-15 is a Sunday: Gym is not due.
        #expect(try cli.run(["habit", "add", "Read"]).status == 0)
        #expect(try cli.run(["habit", "add", "Gym", "--on", "mon"]).status == 0)
        let done = try cli.run(["done", "Read"])
        #expect(done.stdout.hasPrefix("2025-06-15  █ 1 of 1 habit (100%)"), "\(done.stdout)")
        #expect(try cli.run(["day"]).stdout.hasPrefix("2025-06-15  1 of 1 habit (100%)"))
        let undo = try cli.run(["undo", "Read"])
        #expect(undo.stdout.hasPrefix("2025-06-15  · 0 of 1 habit (0%)"), "\(undo.stdout)")
        let skip = try cli.run(["skip", "Read"])
        #expect(skip.stdout.hasPrefix("2025-06-15  - rest day"), "\(skip.stdout)")
        #expect(try cli.run(["day"]).stdout.hasPrefix("2025-06-15  rest day"))
        let unskip = try cli.run(["unskip", "Read"])
        #expect(unskip.stdout.hasPrefix("2025-06-15  · 0 of 1 habit (0%)"), "\(unskip.stdout)")
    }
}
