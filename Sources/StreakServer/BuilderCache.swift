import StreakWire
import Synchronization

/// Encoded answers of the stateless builders by request bytes: the same request always has
/// the same answer, whoever asks. Bounded by entries and by bytes; emptied when full.
final class BuilderCache: Sendable {
    private struct Key: Hashable {
        var method: WireMethod
        var message: [UInt8]

        func hash(into hasher: inout Hasher) {
            hasher.combine(method)
            hasher.combine(requestBytes: message)
        }
    }

    private let entries: Mutex<BoundedResponseCache<Key, NoRecipe>>

    /// - Parameters:
    ///   - limit: the most entries.
    ///   - byteBudget: the most bytes, requests and answers counted.
    ///   - entryLimit: a request and answer larger than this together are not kept.
    init(limit: Int, byteBudget: Int, entryLimit: Int) {
        entries = Mutex(
            BoundedResponseCache(limits: ResponseCacheLimits(entries: limit, bytes: byteBudget, entryBytes: entryLimit))
        )
    }

    func lookup(_ method: WireMethod, _ message: [UInt8]) -> [UInt8]? {
        entries.withLock { $0[Key(method: method, message: message)] }
    }

    func store(_ bytes: [UInt8], for method: WireMethod, _ message: [UInt8]) {
        // Large requests (many completions) are not worth keeping.
        guard message.count <= 4096 else { return }
        entries.withLock { $0.insert(bytes, for: Key(method: method, message: message), keyBytes: message.count + 8) }
    }

    /// The entries and bytes held.
    var usage: (entries: Int, bytes: Int) {
        entries.withLock { ($0.count, $0.bytes) }
    }
}
