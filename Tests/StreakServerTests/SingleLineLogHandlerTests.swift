import Logging
import Synchronization
import Testing

@testable import StreakServer

/// A handler that keeps what it was given.
private struct Recorder: LogHandler {
    let box: Box
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) { box.events.withLock { $0.append(event) } }
}

private final class Box: Sendable {
    let events = Mutex<[LogEvent]>([])
}

@Suite("One log entry, one line")
struct SingleLineLogHandlerTests {
    @Test("line breaks and control characters in messages and metadata are escaped; plain text is untouched")
    func escapes() {
        let box = Box()
        let logger = Logger(label: "test") { _ in SingleLineLogHandler(Recorder(box: box)) }
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
        let events = box.events.withLock { $0 }
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
