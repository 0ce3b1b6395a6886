/// When a repeated event is worth a log line: the first at once, later ones at most once per
/// interval, each line saying how many happened since the one before. A flood of refused
/// connections or bad tokens is then one line every few seconds, not one per event.
public struct LogThrottle: Sendable {
    /// The shortest time between two lines, in nanoseconds.
    public let interval: UInt64
    private var unlogged = 0
    private var loggedAt: UInt64?

    /// A throttle allowing one line per `interval` nanoseconds (10 s by default).
    public init(interval: UInt64 = 10_000_000_000) {
        self.interval = interval
    }

    /// Counts one event at `now` (monotonic nanoseconds).
    /// - Returns: how many events the line due now reports (this one included), or nil when
    ///   no line is due.
    public mutating func count(now: UInt64) -> Int? {
        unlogged += 1
        if let last = loggedAt, elapsedNanoseconds(from: last, to: now) < interval { return nil }
        defer {
            unlogged = 0
            loggedAt = now
        }
        return unlogged
    }
}
