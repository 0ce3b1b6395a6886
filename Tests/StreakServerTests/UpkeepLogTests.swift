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
}
