import StreakCore
import StreakStorage
import StreakWire

/// How a cached GetHeatmap answer (classic or packed) was made, so that a change of a few days'
/// records can bring it up to date instead of dropping it: after a check-in, the next heatmap is
/// answered from the cache with only the changed columns built again, rather than built whole.
///
/// A cell shows one day's counts only (its level and percentage come from them; the month labels
/// and legend depend on the range alone), so a change of some days changes only their cells. A
/// write only notes the columns it made stale (`note`); the next read that finds the answer
/// builds them again (`refreshed`), once for all the writes since. An answer nobody reads again
/// costs a write nothing but the note. A classic answer gets each column spliced into its bytes;
/// a packed one is decoded, its changed days replaced and packed again.
struct HeatmapRecipe: CacheRecipe {
    /// The options the answer was built with (its `asOf` is a day, never "today").
    let options: HeatmapOptions
    /// The habits it shows (empty: all).
    let habitIDs: Set<Int64>
    /// Whether the answer is the packed one (`GetHeatmapResponse.packed`).
    let packed: Bool
    /// The columns whose days changed since the answer was made.
    private var stale = StaleColumns()

    init(options: HeatmapOptions, habitIDs: Set<Int64>, packed: Bool) {
        self.options = options
        self.habitIDs = habitIDs
        self.packed = packed
    }

    /// The largest classic answer that gets a recipe: its stale columns are built again on the
    /// event loop, and each one spliced in copies the answer. A year of five habits with
    /// accessibility labels is about 24 KB, without them about 9 KB; a larger answer is dropped by
    /// a write and built again on the slow path.
    static let maximumAnswerBytes = 32 * 1024

    /// The largest packed answer that gets a recipe: its patch decodes and packs the whole answer
    /// on the event loop (about 11 µs for a year). A year of five habits is about 500 bytes, 600
    /// with month labels, so this is about two years; a longer range is built again on the slow
    /// path after a write.
    static let maximumPackedAnswerBytes = 1_280

    /// The largest answer of either kind that gets a recipe.
    static func maximumBytes(packed: Bool) -> Int { packed ? maximumPackedAnswerBytes : maximumAnswerBytes }

    /// The bytes this recipe adds to its cache entry (besides the key).
    var bytes: Int { MemoryLayout<HeatmapRecipe>.stride + habitIDs.count * 8 }

    /// Whether some column must be built again before the answer is sent.
    var isStale: Bool { stale.count > 0 }

    /// Notes `change`. - Returns: false when the answer must be dropped instead (built again when
    /// next asked): a filtered answer whose habits may have changed, or more stale columns than
    /// `StaleColumns.capacity`.
    mutating func note(_ change: some DayRecordChange) -> Bool {
        guard habitIDs.isEmpty else {
            // Built from a view of some habits: patching would need that view. Kept as it is when
            // the change touched none of its habits.
            return !change.mayChange(anyOf: habitIDs)
        }
        return change.allDays { day in
            // Days outside the range, or after its `asOf`, have no cell.
            guard let column = try? HeatmapBuilder.weekIndex(of: day, options: options) else { return true }
            return stale.insert(column)
        }
    }

    /// `response` with its stale columns built again from `index` (the user's data now), the
    /// others kept (in a classic answer byte for byte); nil when a column cannot be (then the
    /// answer is built whole).
    mutating func refreshed(_ response: [UInt8], index: CompletionIndex) -> [UInt8]? {
        if packed { return refreshedPacked(response, index: index) }
        var bytes = response
        for position in 0..<stale.count {
            let column = stale[position]
            guard let week = try? HeatmapBuilder.week(column, of: index, options: options),
                let next = WireGetHeatmapResponse.replacingWeek(column, with: WireHeatmapWeek(week), in: bytes)
            else { return nil }
            bytes = next
        }
        stale = StaleColumns()
        return bytes
    }

    /// A packed `response` with its stale columns built again: the packed cells are in date order
    /// and the runs in row order, so the answer is decoded, its changed days replaced and packed again
    /// (about 500 bytes for a year). Nil when that fails (then the answer is built whole).
    private mutating func refreshedPacked(_ response: [UInt8], index: CompletionIndex) -> [UInt8]? {
        var weeks: [HeatmapWeek] = []
        for position in 0..<stale.count {
            guard let week = try? HeatmapBuilder.week(stale[position], of: index, options: options) else { return nil }
            weeks.append(week)
        }
        guard let packed = try? WireGetHeatmapResponse(serializedBytes: response).packed,
            let patched = try? packed.replacingCells(of: weeks)
        else { return nil }
        stale = StaleColumns()
        return WireGetHeatmapResponse(packed: patched).serializedBytes()
    }
}

/// Up to four column indexes, each once, held inline: noting a write allocates nothing.
struct StaleColumns {
    /// The most columns held; a change past them drops the answer.
    static let capacity = 4

    private var columns = InlineArray<4, Int>(repeating: 0)
    /// How many are held.
    private(set) var count = 0

    /// The column at `position` (0..<count).
    subscript(position: Int) -> Int { columns[position] }

    /// Adds `column` unless held. - Returns: false when it is not held and there is no room.
    mutating func insert(_ column: Int) -> Bool {
        for position in 0..<count where columns[position] == column { return true }
        guard count < Self.capacity else { return false }
        columns[count] = column
        count += 1
        return true
    }
}

/// What a change did to the user's data that a cached answer may be patched for: it changed only
/// the records (completions and skips) of some days, of some habits.
protocol DayRecordChange: Sendable {
    /// Calls `body` with each day whose records changed (or may have) until it returns false.
    /// - Returns: false when `body` did.
    func allDays(_ body: (CivilDate) -> Bool) -> Bool
    /// Whether a record of one of `habits` may have changed (true when the habits are not known).
    func mayChange(anyOf habits: Set<Int64>) -> Bool
}

/// Completions and skips this server wrote: their days and habits are known.
struct CompletionChanges<Changes: Collection<CompletionChange> & Sendable>: DayRecordChange {
    let changes: Changes

    func allDays(_ body: (CivilDate) -> Bool) -> Bool {
        changes.allSatisfy { body($0.date) }
    }

    func mayChange(anyOf habits: Set<Int64>) -> Bool {
        changes.contains { habits.contains($0.habitID) }
    }
}

/// Days another server changed, read again from the store: their habits are not known.
struct ChangedRecordDays: DayRecordChange {
    let days: [CivilDate]

    func allDays(_ body: (CivilDate) -> Bool) -> Bool {
        days.allSatisfy(body)
    }

    func mayChange(anyOf habits: Set<Int64>) -> Bool { true }
}
