import Synchronization

/// The bytes of unfinished frames that all connections of a transport may hold together, past a
/// small allowance each: a client that sends the first 4 MiB of a 4 MiB frame and never the last
/// byte holds 4 MiB of the server's memory, and without a total, thousands of such connections
/// (no token needed) would hold gigabytes. Small requests never touch it: a connection's first
/// `allowancePerConnection` bytes of an unfinished frame are free.
final class InputBudget: Sendable {
    /// What one connection may hold of an unfinished frame without taking from the budget.
    static let allowancePerConnection = 64 * 1024

    /// The total the connections may hold past their allowances.
    let limit: Int
    private let taken = Atomic<Int>(0)

    init(limit: Int) { self.limit = limit }

    /// Bytes taken from the budget now.
    var inUse: Int { taken.load(ordering: .relaxed) }

    /// Moves a connection's share from `old` to the share of `held` bytes of an unfinished frame.
    /// - Returns: the connection's new share, or nil when the budget cannot give it (its old share
    ///   is then given back: the connection is about to be closed).
    func update(share old: Int, held: Int) -> Int? {
        let share = max(0, held - Self.allowancePerConnection)
        guard share != old else { return share }
        let total = taken.add(share - old, ordering: .relaxed).newValue
        if share > old && total > limit {
            taken.subtract(share, ordering: .relaxed)
            return nil
        }
        return share
    }

    /// Gives back a closed connection's share.
    func release(_ share: Int) {
        if share > 0 { taken.subtract(share, ordering: .relaxed) }
    }
}
