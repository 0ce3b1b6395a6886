import Synchronization

/// The counters GetServerInfo reports.
final class ServiceCounters: Sendable {
    let requests = Atomic<UInt64>(0)
    let errors = Atomic<UInt64>(0)
    let start = ContinuousClock.now

    func countRequest() { requests.add(1, ordering: .relaxed) }
    func countError() { errors.add(1, ordering: .relaxed) }

    var uptimeSeconds: Int64 { (ContinuousClock.now - start).components.seconds }
}
