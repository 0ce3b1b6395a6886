import Logging
import Synchronization

/// A log handler that keeps the events it was given, for tests to read.
struct LogRecorder: LogHandler {
    /// The events, shared by every copy of the handler.
    final class Events: Sendable {
        let logged = Mutex<[LogEvent]>([])

        var all: [LogEvent] { logged.withLock { $0 } }
    }

    let events: Events
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) { events.logged.withLock { $0.append(event) } }
}
