import StreakCore
import StreakWire

/// How a cached classic GetHeatmap answer was made, so that a change of a few days' records can
/// bring it up to date (`patched`) instead of dropping it: after a check-in, the next heatmap
/// is answered from the cache rather than built and encoded again, column by column.
///
/// A cell shows one day's counts only (its level and percentage come from them; the month labels
/// and legend depend on the range alone), so a change of some days changes only their cells.
struct HeatmapRecipe: Sendable {
    /// The options the answer was built with (its `asOf` is a day, never "today").
    var options: HeatmapOptions
    /// The habits it shows (empty: all).
    var habitIDs: Set<Int64>

    /// The most columns a change may touch for its answer to be patched; more are built again.
    static let maximumPatchedWeeks = 4

    /// The bytes this recipe adds to its cache entry (besides the key).
    var bytes: Int { MemoryLayout<HeatmapRecipe>.stride + habitIDs.count * 8 }

    /// `response` after `change`, `index` being the user's index after it; nil when it must be
    /// built again (a filtered answer whose habits changed, or more than `maximumPatchedWeeks`).
    func patched(_ response: [UInt8], after change: DayRecordChange, index: CompletionIndex) -> [UInt8]? {
        guard habitIDs.isEmpty else {
            // Built from a view of some habits: patching would need that view. Kept when the
            // change touched none of its habits.
            guard let changed = change.habitIDs, changed.isDisjoint(with: habitIDs) else { return nil }
            return response
        }
        var weeks: Set<Int> = []
        for day in change.days {
            // Days outside the range, or after its `asOf`, have no cell.
            guard let week = try? HeatmapBuilder.weekIndex(of: day, options: options) else { continue }
            weeks.insert(week)
            guard weeks.count <= Self.maximumPatchedWeeks else { return nil }
        }
        var bytes = response
        for week in weeks {
            guard let column = try? HeatmapBuilder.week(week, of: index, options: options),
                let next = WireGetHeatmapResponse.replacingWeek(week, with: WireHeatmapWeek(column), in: bytes)
            else { return nil }
            bytes = next
        }
        return bytes
    }
}

/// What a change did to the user's data that a cached answer may be patched for: only the
/// records (completions and skips) of `days`, of the habits `habitIDs` (nil: not known).
struct DayRecordChange: Sendable {
    /// The days whose records changed (or may have).
    var days: [CivilDate]
    /// The habits whose records changed on them; nil when not known.
    var habitIDs: Set<Int64>?
}
