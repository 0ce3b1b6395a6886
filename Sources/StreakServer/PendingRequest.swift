import StreakStorage
import StreakTransport
import StreakWire

/// A request of a read burst that waits for the work queue: what the fast path already learned about it.
struct PendingRequest: Sendable {
    var request: IncomingRequest
    var responder: Responder
    var method: WireMethod
    var token: String?
    var user: UserState?
    /// The user the token cache named, when its state was not in memory.
    var userID: UserID?
}
