import StreakWire
import Testing

@testable import StreakServer

@Suite("Large stateless builds wait for workers of their own")
struct LargeBuildTests {
    @Test(
        "a stateless builder's request of 64 KiB or more is a large build; nothing else is",
        arguments: [
            (WireMethod.buildHeatmap, 64 * 1024 - 1, false),
            (.buildHeatmap, 64 * 1024, true),
            (.buildHeatmap, 4 * 1024 * 1024, true),
            (.buildMonthPage, 100_000, true),
            (.buildMonthLabels, 12, false),
            (.getHeatmap, 1_000_000, false),
            (.importData, 1_000_000, false),
            (.recordCompletion, 70_000, false),
        ]
    )
    func largeBuilds(method: WireMethod, bytes: Int, large: Bool) {
        #expect(PendingRequest.isLargeBuild(method, messageBytes: bytes) == large)
    }

    @Test("one worker for large builds per core, at most four", arguments: [(1, 1), (2, 2), (4, 4), (8, 4), (64, 4)])
    func workers(cores: Int, workers: Int) {
        #expect(StreakService.largeBuildWorkers(cores: cores) == workers)
    }
}
