import StreakStorage
import StreakTransport
import StreakWire

/// A request of a read burst that waits off the loop: what the fast path already learned about it.
struct PendingRequest: Sendable {
    var request: IncomingRequest
    var responder: Responder
    var method: WireMethod
    /// The bearer token: a view of the request's `authorization` value, or of an earlier request's
    /// equal one (`ConnectionMemo`).
    var token: Substring?
    /// The user's state, when it was in memory.
    var user: UserState?
    /// The user the token cache (or the store) named; nil while the token waits for its check.
    var userID: UserID?
}

extension PendingRequest {
    /// The smallest request message of a large stateless build: 64 KiB, at most about 65,000
    /// completions in the compact BuildHeatmap input (one byte for a daily one), built in tens
    /// of milliseconds. The largest requests (4 MiB) take a second and over 100 MB.
    static let largeBuildBytes = 64 * 1024

    /// Whether a request of `method` with a message of `bytes` bytes is a stateless build of a
    /// large input, which waits for `StreakService.largeBuilds`.
    static func isLargeBuild(_ method: WireMethod, messageBytes bytes: Int) -> Bool {
        method.isStatelessBuilder && bytes >= largeBuildBytes
    }

    /// Whether this request waits for `StreakService.largeBuilds`.
    var isLargeBuild: Bool { Self.isLargeBuild(method, messageBytes: request.message.count) }
}

/// Whose turn a request off the loop waits for: its user's on the slow path, its connection's
/// among the token checks (whose user the store has yet to name).
enum SlowPathClient: Hashable, Sendable {
    case user(UserID)
    case connection(ObjectIdentifier)
}
