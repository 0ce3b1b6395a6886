import Foundation
import StreakCore
import StreakTestSupport
import StreakWire
import Synchronization

/// The days of the events a Watch on one server delivers, gathered by a thread of its own.
final class WatchedDays: @unchecked Sendable {
    private let connection: TestConnection
    private let stream: UInt32
    private final class Gathered: Sendable { let list = Mutex<[CivilDate]>([]) }
    private let gathered = Gathered()
    private let thread: Thread

    init(on server: ServerProcess, token: String) throws {
        // Reads wait as long as a test may stay quiet (`stop()` ends the stream).
        connection = try server.connect(timeout: .seconds(600))
        stream = try connection.sendRequest(
            WireMethod.watch.rawValue,
            message: WireWatchRequest().serializedBytes(),
            token: token
        )
        _ = try connection.status(of: .ping, WirePingRequest(), token: nil)
        let (connection, gathered) = (connection, gathered)
        thread = Thread {
            while let frame = try? connection.readFrame() {
                guard case .streamMessage(_, let bytes) = frame else { break }
                if let date = try? WireWatchEvent(serializedBytes: bytes).day?.date {
                    gathered.list.withLock { $0.append(date) }
                }
            }
        }
        thread.start()
    }

    /// The days delivered since the last `clear()`, each once, ascending.
    var days: [CivilDate] { gathered.list.withLock { Set($0).sorted() } }

    func clear() { gathered.list.withLock { $0 = [] } }

    /// Cancels the stream and waits for the thread.
    func stop() {
        try? connection.send(.cancel(id: stream))
        while !thread.isFinished { usleep(10_000) }
    }
}
