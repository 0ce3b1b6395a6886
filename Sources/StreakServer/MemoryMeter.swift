import Synchronization

/// The bytes every user state counts, against an optional budget; the registry evicts when the
/// total passes it.
final class MemoryMeter: Sendable {
    private let total = Atomic<Int>(0)
    private let clock = Atomic<UInt64>(0)
    /// (In a struct: a bare function type in a `Mutex` is re-wrapped in a thunk at every access.)
    private struct Action {
        let run: @Sendable () -> Void
    }
    private let overBudget = Mutex<Action?>(nil)
    /// The budget; nil: unbounded.
    let budget: Int?

    init(budget: Int? = nil) {
        self.budget = budget
    }

    /// The bytes counted now.
    var bytes: Int { total.load(ordering: .relaxed) }

    /// A use counter: larger is more recent.
    var tick: UInt64 { clock.add(1, ordering: .relaxed).newValue }

    /// Called when an addition passes the budget.
    func onOverBudget(_ action: @escaping @Sendable () -> Void) {
        overBudget.withLock { $0 = Action(run: action) }
    }

    /// Calls the over-budget action when the total is over the budget.
    func recheck() {
        if let budget, bytes > budget, let action = overBudget.withLock({ $0 }) { action.run() }
    }

    func add(_ bytes: Int) {
        guard bytes != 0 else { return }
        let now = total.add(bytes, ordering: .relaxed).newValue
        if bytes > 0, let budget, now > budget, let action = overBudget.withLock({ $0 }) { action.run() }
    }
}
