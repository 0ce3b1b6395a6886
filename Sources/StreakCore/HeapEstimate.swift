/// Estimates of the heap bytes that Swift's collections take on 64-bit Linux, counted as glibc's
/// malloc hands them out: a chunk is the request plus 8 bytes of header, rounded up to 16, and
/// at least 32. A server uses them to keep the memory its users take under a budget.
public enum HeapEstimate {
    /// The bytes of the chunk that malloc gives for a request of `bytes`.
    public static func chunk(_ bytes: Int) -> Int {
        max(32, (bytes + 8 + 15) & ~15)
    }

    /// An array's buffer: a 32-byte header (object header, count, capacity) and its capacity
    /// of elements. An array that never held anything shares one empty buffer: 0.
    public static func array<Element>(_ array: [Element]) -> Int {
        array.capacity == 0 ? 0 : chunk(32 + array.capacity * MemoryLayout<Element>.stride)
    }

    /// A dictionary's storage: a 64-byte header, then a bitmap word per 64 buckets, the keys and
    /// the values of every bucket (buckets: a power of two at most three quarters full).
    public static func dictionary<Key, Value>(_ dictionary: [Key: Value]) -> Int {
        guard dictionary.capacity > 0 else { return 0 }
        var buckets = 1
        while buckets * 3 / 4 < dictionary.capacity { buckets <<= 1 }
        let bitmap = (buckets + 63) / 64 * 8
        let slots = buckets * (MemoryLayout<Key>.stride + MemoryLayout<Value>.stride)
        return chunk(64 + bitmap + slots)
    }

    /// A string's heap bytes: none up to 15 UTF-8 bytes (stored inline), else a 32-byte header,
    /// the bytes and a terminating zero.
    public static func string(_ string: String) -> Int {
        let count = string.utf8.count
        return count <= 15 ? 0 : chunk(32 + count + 1)
    }
}

extension Habit {
    /// The heap bytes this habit holds beyond its own stride: the name and the schedule entries.
    public var estimatedHeapBytes: Int {
        HeapEstimate.string(name) + HeapEstimate.array(schedule.entries)
    }
}

extension CompletionIndex {
    /// The heap bytes this index holds: every array and dictionary of it (the buffer of each
    /// day's habit ids included) and the habits' names and schedules. A year of five daily habits
    /// is about 25 KB, most of it one small array of ids per day.
    /// Costs O(days with records).
    public var estimatedHeapBytes: Int {
        var bytes = HeapEstimate.array(habits) + habits.reduce(0) { $0 + $1.estimatedHeapBytes }
        bytes += HeapEstimate.array(daysWithCompletions) + HeapEstimate.array(completedIDs)
        for ids in completedIDs { bytes += HeapEstimate.array(ids) }
        bytes += HeapEstimate.dictionary(windows)
        bytes += HeapEstimate.array(createdDays) + HeapEstimate.array(archivedDays)
        bytes += HeapEstimate.array(skipTable.days) + HeapEstimate.array(skipTable.ids)
        for ids in skipTable.ids { bytes += HeapEstimate.array(ids) }
        bytes += HeapEstimate.array(restPeriods) + HeapEstimate.array(restIntervals)
        bytes += HeapEstimate.dictionary(scheduleSlots) + HeapEstimate.array(scheduleTimeline)
        return bytes
    }
}
