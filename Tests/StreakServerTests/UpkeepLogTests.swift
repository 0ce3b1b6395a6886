import FoundationEssentials
import Logging
import StreakStorage
import Testing

@testable import StreakServer

@Suite("Storage upkeep in the server's log")
struct UpkeepLogTests {
    @Test("a failing upkeep is a warning naming it and the error's codes, never the engine's words; recovery a notice")
    func failureAndRecovery() {
        let recorded = LogRecorder.Events()
        let logger = Logger(label: "test") { _ in LogRecorder(events: recorded) }
        let engine = EngineError(
            engine: "PostgreSQL",
            failure: .other,
            code: "42501",
            objects: ["table change_log"],
            text: "ERROR: permission denied for table change_log\nDETAIL: row (1, Meditate)",
            textMayHoldUserData: true
        )
        let failure = StorageError(.io, "PostgreSQL query failed (42501)", cause: engine)
        StoreUpkeepReport(upkeep: .pruneChangeLog, failure: failure).log(to: logger)
        StoreUpkeepReport(upkeep: .pruneChangeLog, failure: nil).log(to: logger)

        let events = recorded.all
        #expect(events.map(\.level) == [.warning, .notice])
        #expect(events.first?.message.description.contains("upkeep is failing") == true)
        let warning = events.first?.metadata ?? [:]
        #expect(warning["upkeep"]?.description == "pruning the change log")
        #expect(warning["engine"]?.description.contains("42501") == true, "\(warning)")
        #expect(!"\(warning)".contains("Meditate"), "\(warning)")
        #expect(events.last?.metadata?["upkeep"]?.description == "pruning the change log")
        #expect(events.last?.message.description == "storage upkeep works again")
    }

    @Test(
        "GetServerInfo's list: a failure keeps its first time and error while it lasts, by job name, gone once it works"
    )
    func failingListForServerInfo() {
        let health = UpkeepHealth()
        let refused = StorageError(.internalFailure, "PostgreSQL query failed (42501)")
        let down = StorageError(.io, "PostgreSQL did not answer within 10 s")
        health.take(StoreUpkeepReport(upkeep: .pruneChangeLog, failure: refused), at: Date(timeIntervalSince1970: 100))
        health.take(StoreUpkeepReport(upkeep: .announceCommits, failure: down), at: Date(timeIntervalSince1970: 200))
        health.take(StoreUpkeepReport(upkeep: .pruneChangeLog, failure: down), at: Date(timeIntervalSince1970: 300))

        let wire = health.current.map(\.wire)
        #expect(wire.map(\.job) == ["announce_commits", "prune_change_log"])
        #expect(wire.map(\.failingSinceUnixSeconds) == [200, 100])
        #expect(wire[1].error == "internalFailure" && wire[1].detail == "PostgreSQL query failed (42501)")
        #expect(wire[1].description == "pruning the change log" && wire[1].engineCode.isEmpty)

        health.take(StoreUpkeepReport(upkeep: .pruneChangeLog, failure: nil), at: Date(timeIntervalSince1970: 400))
        #expect(health.current.map(\.upkeep) == [.announceCommits])
        // Failing again is a new run of failures, with its own start.
        health.take(StoreUpkeepReport(upkeep: .pruneChangeLog, failure: down), at: Date(timeIntervalSince1970: 500))
        #expect(health.current.map(\.since.timeIntervalSince1970) == [200, 500])
    }
}
