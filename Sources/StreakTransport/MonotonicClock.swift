import Dispatch
import Synchronization

/// A monotonic clock in nanoseconds: the transport's timeouts and the service's caches read time
/// through one, so that tests drive time (`ManualClock`) instead of sleeping.
public protocol MonotonicClock: Sendable {
    /// Nanoseconds since an arbitrary start; never decreases.
    var nanoseconds: UInt64 { get }
}

/// The system's monotonic clock (`DispatchTime.now()`).
public struct SystemMonotonicClock: MonotonicClock {
    /// Creates the clock.
    public init() {}

    /// `DispatchTime.now().uptimeNanoseconds`.
    public var nanoseconds: UInt64 { DispatchTime.now().uptimeNanoseconds }
}

/// A clock that moves only when told: for tests that drive time.
public final class ManualClock: MonotonicClock {
    private let now: Mutex<UInt64>

    /// A clock showing `start` nanoseconds.
    public init(start: UInt64 = 1_000_000_000) {
        now = Mutex(start)
    }

    /// The time it shows.
    public var nanoseconds: UInt64 { now.withLock { $0 } }

    /// Moves the clock forward by `duration`.
    public func advance(by duration: Duration) {
        now.withLock { $0 += duration.nanoseconds }
    }
}
