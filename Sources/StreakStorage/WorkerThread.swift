import StreakPOSIX

/// A thread of its own that sleeps until it has work or is asked to stop: the hand-shake that
/// the group-commit writer and the WAL checkpointer share.
///
/// The owner's state (its queue of writes, its checkpoint request) is guarded by this worker's
/// lock. The owner changes it in `update`, which also wakes the thread; the thread takes its
/// next piece of work out of it in `take`, under the lock, and runs it with `run`, outside the
/// lock. Once asked to stop, the thread exits the first time `take` finds nothing.
final class WorkerThread<Work>: @unchecked Sendable {
    private let name: String
    private let condition = ConditionLock()
    private var stopping = false
    private var stopped = false

    /// A worker whose thread, named `name`, starts with `start`.
    init(name: String) {
        self.name = name
    }

    /// Starts the thread.
    ///
    /// - Parameters:
    ///   - take: Called under the lock, with whether the worker is stopping: the next piece of
    ///     work, or nil to sleep (or to exit, once stopping).
    ///   - run: Runs a piece of work, outside the lock.
    func start(take: @escaping @Sendable (_ stopping: Bool) -> Work?, run: @escaping @Sendable (Work) -> Void) {
        NamedThread.start(name: name) { [self] in loop(take: take, run: run) }
    }

    /// Changes the owner's state under the lock, with whether the worker is stopping, then
    /// wakes the thread.
    func update<T>(_ body: (_ stopping: Bool) -> T) -> T {
        condition.lock()
        defer {
            condition.signal()
            condition.unlock()
        }
        return body(stopping)
    }

    /// Reads or changes the owner's state under the lock, without waking the thread.
    func withLock<T>(_ body: () -> T) -> T {
        condition.withLock(body)
    }

    /// Asks the thread to stop and waits until it has: after the work `take` still finds.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while !stopped { condition.wait() }
        condition.unlock()
    }

    private func loop(take: (_ stopping: Bool) -> Work?, run: (Work) -> Void) {
        condition.lock()
        while true {
            if let work = take(stopping) {
                condition.unlock()
                run(work)
                condition.lock()
            } else if stopping {
                stopped = true
                condition.broadcast()
                condition.unlock()
                return
            } else {
                condition.wait()
            }
        }
    }
}
