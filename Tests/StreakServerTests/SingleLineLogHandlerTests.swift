import Logging
import Testing

@testable import StreakServer

@Suite("One log entry, one line")
struct SingleLineLogHandlerTests {
    @Test("line breaks and control characters in messages and metadata are escaped; plain text is untouched")
    func escapes() {
        let recorded = LogRecorder.Events()
        let logger = Logger(label: "test") { _ in SingleLineLogHandler(LogRecorder(events: recorded)) }
        let libpq = "could not connect to server: Connection refused\n\tIs the server running?\n"
        logger.error(
            "storage failed",
            metadata: [
                "detail": "\(libpq)",
                "ref": "2fc274b4",
                "nested": ["list": ["a\rb", "plain"]],
                "escape": "\u{1B}[31mred",
            ]
        )
        logger.info("two\nlines")
        let events = recorded.all
        #expect(events.count == 2)
        let metadata = events.first?.metadata ?? [:]
        #expect(
            metadata["detail"]?.description
                == "could not connect to server: Connection refused\\n\\tIs the server running?\\n"
        )
        #expect(metadata["ref"]?.description == "2fc274b4")
        #expect(metadata["nested"] == .dictionary(["list": .array([.string("a\\rb"), .string("plain")])]))
        #expect(metadata["escape"]?.description == "\\u{1B}[31mred")
        #expect(events.last?.message.description == "two\\nlines")
        #expect(events.first?.message.description == "storage failed")
    }
}
