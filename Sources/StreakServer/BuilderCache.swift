import StreakWire
import Synchronization

/// Encoded answers of the stateless builders by request bytes: the same request always has
/// the same answer, whoever asks. Emptied when it reaches its limit.
final class BuilderCache: Sendable {
    private struct Key: Hashable {
        var method: WireMethod
        var message: [UInt8]
    }

    private let entries = Mutex<[Key: [UInt8]]>([:])
    private let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    func lookup(_ method: WireMethod, _ message: [UInt8]) -> [UInt8]? {
        entries.withLock { $0[Key(method: method, message: message)] }
    }

    func store(_ bytes: [UInt8], for method: WireMethod, _ message: [UInt8]) {
        // Large requests (many completions) are not worth keeping.
        guard message.count <= 4096 else { return }
        entries.withLock { entries in
            if entries.count >= limit { entries.removeAll(keepingCapacity: true) }
            entries[Key(method: method, message: message)] = bytes
        }
    }
}
