/// What a watch does after losing its subscription, kept apart from sockets and clocks so
/// that each step can be checked on its own (`StreakClient.watch` runs it).
///
/// A subscription that ends with UNAVAILABLE (GOAWAY, a server shutting down, a broken
/// connection) is followed by a wait, then a new subscription; any other error ends the
/// watch. The waits follow `WatchReconnectPolicy.backoff(before:)`. Failed attempts in a row
/// are counted: an event, or a subscription that lasted `stableAfter`, starts the count again;
/// one more than `maxAttempts` ends the watch with the last error.
struct WatchReconnectStateMachine {
    /// What the watch must do next.
    enum Action: Equatable {
        /// Wait this long, then call `backoffElapsed()`.
        case sleep(Duration)
        /// Subscribe again, then call `subscribed()` or `subscribeFailed(_:)`.
        case resubscribe
        /// End the watch with this error.
        case fail(StreakClientError)
    }

    /// Where the watch is.
    enum Phase: Equatable {
        /// A subscription is open.
        case subscribed
        /// Waiting before the next attempt.
        case backingOff
        /// A new subscription is being sent.
        case subscribing
        /// The watch ended.
        case failed
    }

    let policy: WatchReconnectPolicy
    /// The failed attempts since the last event or stable subscription.
    private(set) var failedAttempts = 0
    private(set) var phase = Phase.subscribed

    /// Starts with the first subscription open.
    init(policy: WatchReconnectPolicy) {
        self.policy = policy
    }

    /// An event arrived: the server is back, so the count starts again.
    mutating func eventReceived() {
        failedAttempts = 0
    }

    /// The subscription ended with `error` after lasting `lasted`.
    mutating func streamEnded(_ error: StreakClientError, after lasted: Duration) -> Action {
        precondition(phase == .subscribed, "a stream ended while none was open")
        guard error.code == .unavailable else { return fail(error) }
        if lasted >= policy.stableAfter { failedAttempts = 0 }
        return attempt(after: error)
    }

    /// The wait ordered by `.sleep` is over.
    mutating func backoffElapsed() -> Action {
        precondition(phase == .backingOff, "no wait was ordered")
        phase = .subscribing
        return .resubscribe
    }

    /// The new subscription was sent.
    mutating func subscribed() {
        precondition(phase == .subscribing, "no subscription was ordered")
        phase = .subscribed
    }

    /// The new subscription could not be sent (connecting failed): another attempt for
    /// UNAVAILABLE, the end otherwise.
    mutating func subscribeFailed(_ error: StreakClientError) -> Action {
        precondition(phase == .subscribing, "no subscription was ordered")
        guard error.code == .unavailable else { return fail(error) }
        return attempt(after: error)
    }

    private mutating func attempt(after error: StreakClientError) -> Action {
        failedAttempts += 1
        guard failedAttempts <= policy.maxAttempts else {
            var error = error
            error.message += " (gave up after \(policy.maxAttempts) reconnection attempts)"
            return fail(error)
        }
        phase = .backingOff
        return .sleep(policy.backoff(before: failedAttempts))
    }

    private mutating func fail(_ error: StreakClientError) -> Action {
        phase = .failed
        return .fail(error)
    }
}
