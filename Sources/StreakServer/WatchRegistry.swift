import StreakCore
import StreakFraming
import StreakStorage
import StreakTransport
import Synchronization

/// The open Watch streams of every user.
final class WatchRegistry: Sendable {
    /// One open stream.
    struct Subscription: Sendable {
        var responder: Responder
        var requestID: UInt32
        /// The request's generation: a later request that reuses the id is not this stream.
        var generation: UInt64?
        var asOf: CivilDate?
        var token: UInt64
        /// The bearer token the stream was opened with, checked again while it stays open.
        var bearer: String
        /// Whether the client asked for the events other than DAY_CHANGED (`lifecycle_events`).
        var lifecycle = false
        /// For a lifecycle stream without `as_of`: the user's today it last heard of (SUBSCRIBED,
        /// DAY_STARTED or SETTINGS_CHANGED), so that a new one is announced once.
        var announcedToday: CivilDate?

        /// Whether the stream gets DAY_STARTED events.
        var followsToday: Bool { lifecycle && asOf == nil }

        /// Ends the stream with `status` (nothing happens when it already ended).
        func end(_ status: Status) {
            responder.endStream(requestID, generation: generation, status: status)
        }
    }

    private struct Contents {
        var byUser: [UserID: [Subscription]] = [:]
        var nextToken: UInt64 = 0
        var closed = false
        /// Whether the check for new days runs (`claimDayTicker`).
        var dayTicker = false
    }

    private let contents = Mutex(Contents())

    /// The most Watch streams one user may have open on this server. Every change of a watched
    /// user is sent to each of its streams before the change's writer goes on, so this bounds
    /// what one user's streams can cost everyone's writes (a change of 7,320 days sent to 32
    /// streams, not to thousands).
    static let maximumStreamsPerUser = 32

    /// Registers a stream. - Returns: a token for `remove`.
    /// - Throws: UNAVAILABLE when the server is shutting down, RESOURCE_EXHAUSTED when the user
    ///   already has `maximumStreamsPerUser` streams open.
    func add(
        user: UserID,
        responder: Responder,
        request: IncomingRequest,
        asOf: CivilDate?,
        bearer: String,
        lifecycle: Bool = false,
        today: CivilDate? = nil
    ) throws(ServiceError) -> UInt64 {
        try contents.withLock { contents throws(ServiceError) in
            guard !contents.closed else { throw .shuttingDown }
            guard contents.byUser[user, default: []].count < Self.maximumStreamsPerUser else {
                throw ServiceError(
                    .resourceExhausted,
                    "a user may have at most \(Self.maximumStreamsPerUser) Watch streams open on one server; "
                        + "cancel one first (one stream can serve a whole device)"
                )
            }
            contents.nextToken += 1
            let subscription = Subscription(
                responder: responder,
                requestID: request.id,
                generation: request.generation,
                asOf: asOf,
                token: contents.nextToken,
                bearer: bearer,
                lifecycle: lifecycle,
                announcedToday: lifecycle && asOf == nil ? today : nil
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

    /// Whether the user has an open stream.
    func isWatched(_ user: UserID) -> Bool {
        contents.withLock { $0.byUser[user] != nil }
    }

    /// The streams of a user.
    func subscriptions(of user: UserID) -> [Subscription] {
        contents.withLock { $0.byUser[user] ?? [] }
    }

    /// The lifecycle streams of a user.
    func lifecycleSubscriptions(of user: UserID) -> [Subscription] {
        contents.withLock { $0.byUser[user]?.filter(\.lifecycle) ?? [] }
    }

    /// The users with a stream that gets DAY_STARTED events.
    func usersFollowingToday() -> [UserID] {
        contents.withLock { contents in
            contents.byUser.compactMap { user, subscriptions in
                subscriptions.contains(where: \.followsToday) ? user : nil
            }
        }
    }

    /// Notes that the user's today is `today` for its streams that get DAY_STARTED events.
    /// - Returns: those that had heard of another today (they are told now).
    func announce(today: CivilDate, to user: UserID) -> [Subscription] {
        contents.withLock { contents in
            guard var subscriptions = contents.byUser[user] else { return [] }
            var told: [Subscription] = []
            for index in subscriptions.indices
            where subscriptions[index].followsToday && subscriptions[index].announcedToday != today {
                subscriptions[index].announcedToday = today
                told.append(subscriptions[index])
            }
            if !told.isEmpty { contents.byUser[user] = subscriptions }
            return told
        }
    }

    /// Starts the check for new days unless it runs: true when the caller is to run it.
    func claimDayTicker() -> Bool {
        contents.withLock { contents in
            guard !contents.dayTicker, !contents.closed else { return false }
            contents.dayTicker = true
            return true
        }
    }

    /// Whether the check for new days is to go on: false (and it stops) once no stream gets
    /// DAY_STARTED events; a stream that opts in later starts it again (`claimDayTicker`).
    func keepDayTicker() -> Bool {
        contents.withLock { contents in
            let keep = !contents.closed && contents.byUser.values.contains { $0.contains(where: \.followsToday) }
            contents.dayTicker = keep
            return keep
        }
    }

    /// Every bearer token that holds a stream open, with the user it belonged to.
    func bearers() -> [String: UserID] {
        contents.withLock { contents in
            var result: [String: UserID] = [:]
            for (user, subscriptions) in contents.byUser {
                for subscription in subscriptions { result[subscription.bearer] = user }
            }
            return result
        }
    }

    /// Ends (and unregisters) every stream opened with `bearer`.
    func end(bearer: String, status: Status) {
        let ended = contents.withLock { contents in
            var ended: [Subscription] = []
            for user in Array(contents.byUser.keys) {
                ended += contents.byUser[user]?.filter { $0.bearer == bearer } ?? []
                contents.byUser[user]?.removeAll { $0.bearer == bearer }
                if contents.byUser[user]?.isEmpty == true { contents.byUser[user] = nil }
            }
            return ended
        }
        for subscription in ended { subscription.end(status) }
    }

    /// Ends (and unregisters) every stream of `user`.
    func end(user: UserID, status: Status) {
        let ended = contents.withLock { $0.byUser.removeValue(forKey: user) ?? [] }
        for subscription in ended { subscription.end(status) }
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
        for subscription in all { subscription.end(status) }
    }
}
