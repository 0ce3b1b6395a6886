import StreakTransport
import Synchronization

/// The counters GetServerInfo reports.
final class ServiceCounters: Sendable {
    let requests = Atomic<UInt64>(0)
    let errors = Atomic<UInt64>(0)
    private let clock: any MonotonicClock
    private let start: UInt64

    /// Counters from now; uptime is measured by `clock`.
    init(clock: any MonotonicClock) {
        self.clock = clock
        start = clock.nanoseconds
    }

    func countRequest() { requests.add(1, ordering: .relaxed) }
    func countError() { errors.add(1, ordering: .relaxed) }

    var uptimeSeconds: Int64 { Int64((clock.nanoseconds &- start) / 1_000_000_000) }
}
