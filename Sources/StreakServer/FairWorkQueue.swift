import Dispatch
import Synchronization

/// Work from many clients, run on a few workers in turn: each client's items wait in a line of
/// their own, oldest first, and the clients with items waiting take turns, one item each. A
/// client's request waits for the items running and at most one item of each client ahead of
/// it, so a client that queues 40 costly requests delays another's by about two of them, not by
/// all 40 (a plain concurrent queue serves first come, first served: one connection's pipelined
/// heatmap builds held other users' requests back for seconds).
///
/// A client's items start in the order they were submitted; with no other client waiting they
/// run on every worker at once, as they would on the concurrent queue.
final class FairWorkQueue<Client: Hashable & Sendable>: Sendable {
    typealias Item = @Sendable () -> Void

    /// One client's items waiting, oldest at `head`.
    private struct Line {
        var items: [Item]
        var head = 0
    }

    private struct State {
        var lines: [Client: Line] = [:]
        /// The clients with items waiting, in the order they are served next, from `turnHead`.
        var turns: [Client] = []
        var turnHead = 0
        /// The workers' queues that run nothing now (`lanes`' indices).
        var idleLanes: [Int] = []

        /// The next item, from the client whose turn it is (who then goes to the back of the line).
        mutating func next() -> Item? {
            guard turnHead < turns.count else { return nil }
            let client = turns[turnHead]
            turnHead += 1
            // Every client in `turns` has a line; a miss would be a bug, skipped rather than stalled.
            guard var line = lines.removeValue(forKey: client) else { return next() }
            let item = line.items[line.head]
            line.head += 1
            if line.head < line.items.count {
                lines[client] = line
                turns.append(client)
            }
            if turnHead == turns.count {
                turns.removeAll(keepingCapacity: true)
                turnHead = 0
            } else if turnHead >= 64 && turnHead * 2 >= turns.count {
                turns.removeFirst(turnHead)
                turnHead = 0
            }
            return item
        }
    }

    private let state = Mutex(State())
    /// One serial queue per worker: a serial queue gets a thread even when Dispatch's pool for
    /// concurrent queues is busy (it "overcommits"). On one concurrent queue, the workers of two
    /// of these queues would share that pool, and the few workers of one, running costly items
    /// for as long as items wait, would keep the other's from starting at all.
    private let lanes: [DispatchQueue]

    /// - Parameters:
    ///   - label: the prefix of the workers' queue labels.
    ///   - width: the most workers at once; more than the cores, so that items that block on the
    ///     store (a token check, a user's load) do not leave cores idle.
    init(label: String, width: Int) {
        lanes = (0..<max(1, width)).map { DispatchQueue(label: "\(label).\($0)", qos: .userInitiated) }
        state.withLock { $0.idleLanes = Array(lanes.indices.reversed()) }
    }

    /// Queues `items` (in order) behind `client`'s earlier ones.
    func submit(_ items: [Item], from client: Client) {
        guard !items.isEmpty else { return }
        let started = state.withLock { state -> [Int] in
            if var line = state.lines.removeValue(forKey: client) {
                if line.head > 0 && line.head * 2 >= line.items.count {
                    line.items.removeFirst(line.head)
                    line.head = 0
                }
                line.items.append(contentsOf: items)
                state.lines[client] = line
            } else {
                state.lines[client] = Line(items: items)
                state.turns.append(client)
            }
            let count = min(state.idleLanes.count, items.count)
            defer { state.idleLanes.removeLast(count) }
            return Array(state.idleLanes.suffix(count))
        }
        for lane in started { lanes[lane].async { self.work(on: lane) } }
    }

    /// Runs items in turn until none waits, then gives `lane` back.
    private func work(on lane: Int) {
        while let item = state.withLock({ state -> Item? in
            guard let item = state.next() else {
                state.idleLanes.append(lane)
                return nil
            }
            return item
        }) {
            item()
        }
    }
}
