import Synchronization

/// The service as its own background jobs reach it: the follower's notifications and the
/// stream and day timers. It is held strongly until `close()` lets it go, rather than weakly: a
/// weak reference gives an object a side table, and every retain and release of that object
/// then takes the slower path through it. The event loop retains the service for every read
/// burst it hands over, and the storage writer for every answer it gives.
final class ServiceRelay: Sendable {
    private let service = Mutex<StreakService?>(nil)

    /// The service, until `release()`.
    var current: StreakService? { service.withLock { $0 } }

    /// Sets the service the relay reaches (from its initializer, once its properties are set and
    /// before it starts any job).
    func attach(_ service: StreakService) {
        self.service.withLock { $0 = service }
    }

    /// Lets the service go: later jobs find nothing and stop.
    func release() {
        service.withLock { $0 = nil }
    }
}
