import Synchronization

/// Bytes that all connections of a transport may hold together, past a small allowance each.
///
/// Three of them bound what clients can make the server hold without a token:
/// - the input budget, the bytes of unfinished frames: a client that sends the first 4 MiB of a
///   4 MiB frame and never the last byte holds 4 MiB of the server's memory, and without a
///   total, thousands of such connections would hold gigabytes;
/// - the output budget, the unsent output: a client that pipelines requests with big answers
///   (a 4 MiB Ping payload is echoed back) and never reads holds about its connection's
///   `maxPendingOutputBytes` plus one answer, and thousands of them would hold gigabytes too;
/// - the request budget, the bytes of requests read whole and not answered yet: a client that
///   pipelines large requests with small answers (BuildHeatmap's input) holds about its
///   connection's `maxRequestBytesInFlight` plus one frame, and thousands of them would too.
///
/// Small requests and answers never touch either: a connection's first `allowancePerConnection`
/// bytes are free, and the budget is only consulted past them.
final class ByteBudget: Sendable {
    /// What one connection may hold of an unfinished frame without taking from the input budget.
    static let inputAllowance = 64 * 1024
    /// What one connection may hold of unsent output without taking from the output budget.
    static let outputAllowance = 256 * 1024
    /// What one connection's requests in flight may hold without taking from the request budget.
    static let requestAllowance = 64 * 1024

    /// What one connection may hold without taking from the budget.
    let allowancePerConnection: Int
    /// The total the connections may hold past their allowances.
    let limit: Int
    private let taken = Atomic<Int>(0)

    init(limit: Int, allowancePerConnection: Int) {
        self.limit = limit
        self.allowancePerConnection = allowancePerConnection
    }

    /// Bytes taken from the budget now.
    var inUse: Int { taken.load(ordering: .relaxed) }

    /// Moves a connection's share from `old` to the share of `held` bytes.
    /// - Returns: the connection's new share, or nil when the budget cannot give it (its old share
    ///   is then given back: the connection is about to be closed).
    func update(share old: Int, held: Int) -> Int? {
        if let share = take(share: old, held: held) { return share }
        release(old)
        return nil
    }

    /// Moves a connection's share from `old` to the share of `held` bytes, unless that takes more
    /// than the budget has left: the connection then keeps `old` (the request that would have
    /// grown it is refused, and the connection goes on).
    /// - Returns: the connection's new share, or nil when the budget cannot give it.
    func take(share old: Int, held: Int) -> Int? {
        let share = max(0, held - allowancePerConnection)
        guard share != old else { return share }
        let total = taken.add(share - old, ordering: .relaxed).newValue
        if share > old && total > limit {
            taken.subtract(share - old, ordering: .relaxed)
            return nil
        }
        return share
    }

    /// Gives back a closed connection's share.
    func release(_ share: Int) {
        if share > 0 { taken.subtract(share, ordering: .relaxed) }
    }
}
