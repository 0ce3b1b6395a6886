import StreakCore
import StreakFraming
import StreakStorage
import Synchronization

/// The open Watch streams of every user.
final class WatchRegistry: Sendable {
    /// One open stream.
    struct Subscription: Sendable {
        var responder: Responder
        var requestID: UInt32
        var asOf: CivilDate?
        var token: UInt64
    }

    private struct Contents {
        var byUser: [UserID: [Subscription]] = [:]
        var nextToken: UInt64 = 0
        var closed = false
    }

    private let contents = Mutex(Contents())

    /// Registers a stream; returns a token for `remove`, or nil when the server is shutting down.
    func add(user: UserID, responder: Responder, requestID: UInt32, asOf: CivilDate?) -> UInt64? {
        contents.withLock { contents in
            guard !contents.closed else { return nil }
            contents.nextToken += 1
            let subscription = Subscription(
                responder: responder,
                requestID: requestID,
                asOf: asOf,
                token: contents.nextToken
            )
            contents.byUser[user, default: []].append(subscription)
            return contents.nextToken
        }
    }

    /// Unregisters a stream (its termination handler calls this).
    func remove(user: UserID, token: UInt64) {
        contents.withLock { contents in
            contents.byUser[user]?.removeAll { $0.token == token }
            if contents.byUser[user]?.isEmpty == true { contents.byUser[user] = nil }
        }
    }

    /// The streams of a user.
    func subscriptions(of user: UserID) -> [Subscription] {
        contents.withLock { $0.byUser[user] ?? [] }
    }

    /// The number of open streams.
    var count: Int { contents.withLock { $0.byUser.values.reduce(0) { $0 + $1.count } } }

    /// Ends every stream with `status` and refuses new ones.
    func endAll(status: Status) {
        let all = contents.withLock { contents in
            contents.closed = true
            defer { contents.byUser.removeAll() }
            return contents.byUser.values.flatMap { $0 }
        }
        for subscription in all {
            subscription.responder.endStream(subscription.requestID, status: status)
        }
    }
}
