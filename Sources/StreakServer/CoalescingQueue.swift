import Synchronization

/// Work set aside by the completions of a group commit, run together once the whole batch was
/// applied (the store's batch hook calls `drain`, on the store's acknowledging thread).
///
/// Every acknowledged write empties its user's cached streak summary; answering each write as
/// soon as it is applied would compute a summary per write against a state the next write of
/// the batch changes again. Answered after the batch, the writes of one user share one summary.
final class CoalescingQueue: Sendable {
    private let items = Mutex<[@Sendable () -> Void]>([])

    /// Sets `item` aside until the next `drain`.
    func submit(_ item: @escaping @Sendable () -> Void) {
        items.withLock { $0.append(item) }
    }

    /// Runs every item set aside, in order.
    func drain() {
        let batch = items.withLock { items in
            defer { items.removeAll(keepingCapacity: true) }
            return items
        }
        for item in batch { item() }
    }
}
