import Dispatch
import StreakStorage
import Synchronization

/// Remembers, for a short time, which user a bearer token belongs to (or that it belongs to none),
/// so that the fast path authenticates without the store. The TTL bounds how long a revoked
/// token keeps working. Tokens are never logged.
final class TokenCache: Sendable {
    /// What the cache knows about a token.
    enum Entry: Sendable {
        case user(UserState)
        case rejected
    }

    private struct Slot {
        var entry: Entry
        var expiresAt: UInt64
    }

    private let slots = Mutex<[String: Slot]>([:])
    private let ttlNanoseconds: UInt64
    private let capacity: Int

    init(ttl: Duration, capacity: Int = 16_384) {
        let components = ttl.components
        ttlNanoseconds = UInt64(components.seconds) * 1_000_000_000 + UInt64(components.attoseconds / 1_000_000_000)
        self.capacity = capacity
    }

    /// The cached entry, or nil when the token is unknown or its entry expired.
    func lookup(_ token: String) -> Entry? {
        let now = DispatchTime.now().uptimeNanoseconds
        return slots.withLock { slots in
            guard let slot = slots[token], slot.expiresAt > now else { return nil }
            return slot.entry
        }
    }

    /// Remembers what the store said about `token`.
    func remember(_ token: String, _ entry: Entry) {
        let expiresAt = DispatchTime.now().uptimeNanoseconds + ttlNanoseconds
        slots.withLock { slots in
            if slots.count >= capacity { slots.removeAll(keepingCapacity: true) }
            slots[token] = Slot(entry: entry, expiresAt: expiresAt)
        }
    }

    /// Forgets every token.
    func removeAll() {
        slots.withLock { $0.removeAll() }
    }
}
