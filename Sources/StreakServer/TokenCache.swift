import StreakStorage
import StreakTransport
import Synchronization

/// Remembers, for a short time, which user a bearer token belongs to (or that it belongs to none),
/// so that the fast path authenticates without the store. The TTL bounds how long a revoked
/// token keeps working. Tokens are never logged.
///
/// Accepted and refused tokens are kept apart, each with its own bound: refused tokens (only
/// well-formed ones reach the cache, remembered by digest) can never push out a real user's
/// token, and a full cache drops its expired entries before it drops everything.
final class TokenCache: Sendable {
    /// What the cache knows about a token.
    enum Entry: Sendable {
        /// The token is this user's (whose state the registry holds, or loads).
        case user(UserID)
        case rejected
    }

    /// An accepted token's entry as a lookup found it: whose token it is, and until when (by the
    /// cache's clock) that answer may be used without asking the cache again.
    struct Acceptance: Sendable {
        let user: UserID
        let expiresAt: UInt64
        /// The cache's generation when it was found: whatever drops an entry that has not
        /// expired (a refusal of an accepted token, a full cache emptied, `removeAll`) starts a
        /// new one.
        let generation: UInt64
    }

    /// What a lookup found.
    enum Found: Sendable {
        case accepted(Acceptance)
        case rejected
    }

    private struct Contents {
        /// Keyed by views of the requests' metadata values: a lookup copies nothing.
        var accepted: [Substring: (user: UserID, expiresAt: UInt64)] = [:]
        var rejected: [TokenDigest: UInt64] = [:]
    }

    private let contents = Mutex(Contents())
    /// Changes whenever an entry that has not expired is dropped, so that an `Acceptance` found
    /// before never outlives its entry: a token dropped from a full cache and refused later has no
    /// entry left to show that it was accepted.
    private let generation = Atomic<UInt64>(0)
    private let ttlNanoseconds: UInt64
    private let capacity: Int
    private let rejectedCapacity: Int
    private let clock: any MonotonicClock

    /// - Parameters:
    ///   - capacity: accepted tokens kept at most.
    ///   - rejectedCapacity: refused tokens kept at most (by digest, 32 bytes each).
    ///   - clock: what entries expire by.
    init(
        ttl: Duration,
        capacity: Int = 16_384,
        rejectedCapacity: Int = 4_096,
        clock: any MonotonicClock = SystemMonotonicClock()
    ) {
        self.clock = clock
        ttlNanoseconds = ttl.nanoseconds
        self.capacity = capacity
        self.rejectedCapacity = rejectedCapacity
    }

    /// The cached entry of a token (a view of a request's metadata value), or nil when the token
    /// is unknown or its entry expired.
    func lookup(_ token: Substring) -> Entry? {
        switch find(token) {
        case .accepted(let acceptance): .user(acceptance.user)
        case .rejected: .rejected
        case nil: nil
        }
    }

    /// `lookup`, with how long an acceptance holds (`holds(_:)`).
    func find(_ token: Substring) -> Found? {
        let now = clock.nanoseconds
        // Read before the entry: a refusal that removes the entry meanwhile leaves the
        // acceptance already stale.
        let generation = generation.load(ordering: .acquiring)
        let accepted = contents.withLock { contents in
            contents.accepted[token].flatMap { $0.expiresAt > now ? $0 : nil }
        }
        if let accepted {
            return .accepted(Acceptance(user: accepted.user, expiresAt: accepted.expiresAt, generation: generation))
        }
        // Hashed outside the lock; only tokens that are not a current user's get here.
        let digest = TokenDigest(token: String(token))
        let rejected = contents.withLock { contents in contents.rejected[digest].map { $0 > now } ?? false }
        return rejected ? .rejected : nil
    }

    /// Whether `acceptance` still holds: it has not expired, and since it was found the cache
    /// dropped no entry that had not expired (`generation`). Reads the clock and one atomic value.
    func holds(_ acceptance: Acceptance) -> Bool {
        clock.nanoseconds < acceptance.expiresAt && generation.load(ordering: .acquiring) == acceptance.generation
    }

    /// The user this cache last accepted `token` for, however long ago, unless the store refused
    /// it since (or the entry was dropped to make room): what GetServerInfo, which returns no user
    /// data, falls back on while the store cannot check tokens.
    func lastAcceptedUser(_ token: Substring) -> UserID? {
        contents.withLock { $0.accepted[token]?.user }
    }

    /// Remembers what the store said about `token` (kept as the view it is: of the request's
    /// metadata value, which it keeps alive).
    func remember(_ token: Substring, _ entry: Entry) {
        let now = clock.nanoseconds
        let expiresAt = now + ttlNanoseconds
        switch entry {
        case .user(let user):
            let digest = TokenDigest(token: String(token))
            contents.withLock { contents in
                if contents.accepted[token] == nil && contents.accepted.count >= capacity {
                    contents.accepted = contents.accepted.filter { $0.value.expiresAt > now }
                    if contents.accepted.count >= capacity {
                        contents.accepted.removeAll()
                        generation.add(1, ordering: .releasing)
                    }
                }
                contents.accepted[token] = (user, expiresAt)
                contents.rejected[digest] = nil
            }
        case .rejected:
            let digest = TokenDigest(token: String(token))
            contents.withLock { contents in
                if contents.accepted.removeValue(forKey: token) != nil {
                    generation.add(1, ordering: .releasing)
                }
                if contents.rejected[digest] == nil && contents.rejected.count >= rejectedCapacity {
                    contents.rejected = contents.rejected.filter { $0.value > now }
                    if contents.rejected.count >= rejectedCapacity { contents.rejected.removeAll() }
                }
                contents.rejected[digest] = expiresAt
            }
        }
    }

    /// The number of accepted and of refused tokens held (for tests).
    var counts: (accepted: Int, rejected: Int) {
        contents.withLock { ($0.accepted.count, $0.rejected.count) }
    }

    /// Forgets every token (and every acceptance found before stops holding).
    func removeAll() {
        contents.withLock { contents in
            contents.accepted.removeAll()
            contents.rejected.removeAll()
            generation.add(1, ordering: .releasing)
        }
    }
}
