/// The timers of one event loop: blocks due at a monotonic time, earliest first (a binary
/// min-heap; blocks due at the same time run in the order they were scheduled).
///
/// Touched only by the loop's thread.
struct LoopTimers {
    private struct Entry {
        let due: UInt64
        let order: UInt64
        let block: @Sendable () -> Void

        func precedes(_ other: Entry) -> Bool {
            due != other.due ? due < other.due : order < other.order
        }
    }

    private var heap: [Entry] = []
    private var scheduled: UInt64 = 0

    /// Whether no timer is pending.
    var isEmpty: Bool { heap.isEmpty }

    /// Schedules `block` at `due` (monotonic nanoseconds, `DispatchTime.uptimeNanoseconds`).
    mutating func schedule(at due: UInt64, _ block: @escaping @Sendable () -> Void) {
        scheduled &+= 1
        heap.append(Entry(due: due, order: scheduled, block: block))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest block due at or before `now`, if any.
    mutating func popDue(now: UInt64) -> (@Sendable () -> Void)? {
        guard let first = heap.first, first.due <= now else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < heap.count && heap[left].precedes(heap[smallest]) { smallest = left }
                if right < heap.count && heap[right].precedes(heap[smallest]) { smallest = right }
                if smallest == parent { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return first.block
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
