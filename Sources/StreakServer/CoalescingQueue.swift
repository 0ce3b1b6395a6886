import Dispatch
import Synchronization

/// Runs submitted work on a target queue, many items per hop.
///
/// The store's writer acknowledges a whole group commit at once; hopping to the work queue
/// once per acknowledged write costs a thread wake-up each and makes every answer compute its
/// own streak summary against a state that later writes of the batch change again. Items
/// submitted while a drain is pending join it: one hop per batch, and the writes of one user
/// in that batch share one summary.
final class CoalescingQueue: Sendable {
    private let target: DispatchQueue
    private let state = Mutex<(items: [@Sendable () -> Void], scheduled: Bool)>(([], false))

    /// - Parameter target: where the items run.
    init(target: DispatchQueue) {
        self.target = target
    }

    /// Runs `item` on the target queue, together with the items submitted before the drain starts.
    func submit(_ item: @escaping @Sendable () -> Void) {
        let schedule = state.withLock { state in
            state.items.append(item)
            defer { state.scheduled = true }
            return !state.scheduled
        }
        if schedule { target.async { self.drain() } }
    }

    private func drain() {
        let items = state.withLock { state in
            state.scheduled = false
            defer { state.items.removeAll(keepingCapacity: true) }
            return state.items
        }
        for item in items { item() }
    }
}
