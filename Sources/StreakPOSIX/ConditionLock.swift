#if canImport(Glibc)
import Glibc
#endif

/// A mutex with a condition variable (POSIX `pthread_mutex_t` and `pthread_cond_t`): what a
/// thread that sleeps until it has work waits on. Lock and unlock on the same thread.
public final class ConditionLock: @unchecked Sendable {
    // @unchecked: the two pthread objects live at fixed heap addresses and are only used
    // through the calls below, which the pthread library makes thread-safe.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    /// Creates an unlocked lock.
    public init() {
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
        precondition(pthread_cond_init(condition, nil) == 0, "pthread_cond_init failed")
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Takes the lock.
    public func lock() {
        precondition(pthread_mutex_lock(mutex) == 0, "pthread_mutex_lock failed")
    }

    /// Releases the lock.
    public func unlock() {
        precondition(pthread_mutex_unlock(mutex) == 0, "pthread_mutex_unlock failed")
    }

    /// Runs `body` with the lock held.
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Releases the lock, sleeps until signalled (or woken spuriously: check the state again),
    /// and takes the lock again. Call with the lock held.
    public func wait() {
        precondition(pthread_cond_wait(condition, mutex) == 0, "pthread_cond_wait failed")
    }

    /// Wakes one waiting thread.
    public func signal() {
        pthread_cond_signal(condition)
    }

    /// Wakes every waiting thread.
    public func broadcast() {
        pthread_cond_broadcast(condition)
    }
}
