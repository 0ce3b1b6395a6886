/// What a loop timer does when it is due.
protocol LoopTimerAction: Sendable {
    /// Runs on the loop's thread once the timer is due.
    func fire()
    /// Whether firing would do nothing any more (a request's deadline once it was answered): such
    /// timers may be dropped before they are due. Asked on the loop's thread.
    var isObsolete: Bool { get }
}

/// A block run when the timer is due; never obsolete.
struct BlockTimer: LoopTimerAction {
    let block: @Sendable () -> Void

    func fire() { block() }
    var isObsolete: Bool { false }
}

/// The timers of one event loop: actions due at a monotonic time, earliest first (a binary
/// min-heap; actions due at the same time run in the order they were scheduled).
///
/// Obsolete timers are dropped whenever the heap has doubled since the last sweep (and holds at
/// least `minimumSweep`): a client whose requests all carry a 24-hour `deadline-ms` and are all
/// answered at once leaves a bounded heap, not one entry per request for a day.
///
/// Touched only by the loop's thread.
struct LoopTimers {
    private struct Entry {
        let due: UInt64
        let order: UInt64
        let action: any LoopTimerAction

        func precedes(_ other: Entry) -> Bool {
            due != other.due ? due < other.due : order < other.order
        }
    }

    /// The heap size below which obsolete timers are left until they are due.
    static let minimumSweep = 1_024

    private var heap: [Entry] = []
    private var scheduled: UInt64 = 0
    private var nextSweep = LoopTimers.minimumSweep

    /// Whether no timer is pending.
    var isEmpty: Bool { heap.isEmpty }

    /// How many timers are pending (obsolete ones not yet dropped included).
    var count: Int { heap.count }

    /// Schedules `block` at `due` (monotonic nanoseconds, `DispatchTime.uptimeNanoseconds`).
    mutating func schedule(at due: UInt64, _ block: @escaping @Sendable () -> Void) {
        schedule(at: due, BlockTimer(block: block))
    }

    /// Schedules `action` at `due`.
    mutating func schedule(at due: UInt64, _ action: some LoopTimerAction) {
        if heap.count >= nextSweep { dropObsolete() }
        scheduled &+= 1
        heap.append(Entry(due: due, order: scheduled, action: action))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest action due at or before `now`, if any.
    mutating func popDue(now: UInt64) -> (any LoopTimerAction)? {
        guard let first = heap.first, first.due <= now else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            siftDown(from: 0)
        }
        return first.action
    }

    /// Drops the obsolete timers and rebuilds the heap: O(n), once per doubling of the heap.
    private mutating func dropObsolete() {
        heap.removeAll { $0.action.isObsolete }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(from: index) }
        nextSweep = max(Self.minimumSweep, heap.count * 2)
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count && heap[left].precedes(heap[smallest]) { smallest = left }
            if right < heap.count && heap[right].precedes(heap[smallest]) { smallest = right }
            if smallest == parent { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }

    /// How long a wait at `now` may last before the earliest timer is due: whole milliseconds,
    /// rounded up (a wait never ends before its timer), or -1 without timers.
    func waitMilliseconds(now: UInt64) -> Int32 {
        guard let first = heap.first else { return -1 }
        guard first.due > now else { return 0 }
        let (whole, part) = (first.due - now).quotientAndRemainder(dividingBy: 1_000_000)
        let milliseconds = part > 0 ? whole + 1 : whole
        return Int32(min(milliseconds, UInt64(Int32.max)))
    }
}
