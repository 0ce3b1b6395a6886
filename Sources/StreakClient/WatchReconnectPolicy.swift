/// How `StreakClient.watch` subscribes again after losing its stream to a GOAWAY, a server
/// shutdown or a broken connection (anything that ends the stream with UNAVAILABLE).
///
/// Attempts back off exponentially from `initialBackoff` to `maxBackoff`. The count starts
/// again after an event arrives or once a subscription has lasted `maxBackoff` × 10, so a
/// server that restarts now and then never ends the watch, while one that stays down (or
/// drops every new subscription at once) ends it after `maxAttempts` tries in a row.
public struct WatchReconnectPolicy: Hashable, Sendable {
    /// How many reconnections in a row may fail before the watch gives up; 0 never reconnects.
    public var maxAttempts: Int
    /// The wait before the first attempt; it doubles for each further one.
    public var initialBackoff: Duration
    /// The longest wait between two attempts.
    public var maxBackoff: Duration

    /// Creates a policy.
    /// - Parameters:
    ///   - maxAttempts: failed reconnections in a row before giving up (0: never reconnect).
    ///   - initialBackoff: the wait before the first attempt.
    ///   - maxBackoff: the longest wait between attempts.
    public init(
        maxAttempts: Int = 10,
        initialBackoff: Duration = .milliseconds(100),
        maxBackoff: Duration = .seconds(3)
    ) {
        self.maxAttempts = maxAttempts
        self.initialBackoff = initialBackoff
        self.maxBackoff = maxBackoff
    }

    /// Ten attempts, 0.1 s doubling to 3 s between them: about 18 s for a server to come back.
    public static let `default` = WatchReconnectPolicy()

    /// Never reconnect: the stream ends with the error that ended the subscription.
    public static let never = WatchReconnectPolicy(maxAttempts: 0)

    /// The wait before attempt `attempt` (1-based).
    func backoff(before attempt: Int) -> Duration {
        var delay = initialBackoff
        for _ in 1..<max(1, attempt) where delay < maxBackoff {
            delay *= 2
        }
        return min(delay, maxBackoff)
    }

    /// How long a subscription must last for the attempt count to start again.
    var stableAfter: Duration { maxBackoff * 10 }
}
