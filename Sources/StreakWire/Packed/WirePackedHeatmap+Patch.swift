public import StreakCore

extension WirePackedHeatmap {
    /// This heatmap with the present cells of `weeks` in place of its own for the same days, the
    /// others kept: how the server brings a cached packed answer up to date after a change of a
    /// few days' records, with only the changed columns built again. The result is exactly the
    /// packing of the heatmap with those columns replaced (the runs and exceptions are packed
    /// again; the range, week start and month labels stay).
    /// - Throws: `WireError(.invalidValue)` when this heatmap does not decode, or when a present
    ///   cell of `weeks` is not one of its present days.
    public func replacingCells(of weeks: some Sequence<HeatmapWeek>) throws(WireError) -> WirePackedHeatmap {
        let (from, to, weekStart, count) = try validatedHeader()
        var cells = try packedCells(from: from, count: count, lead: from.weekday.offset(from: weekStart))
        for week in weeks {
            for case let cell? in week.cells {
                let index = cell.date.dayNumber - from.dayNumber
                guard cells.indices.contains(index) else {
                    throw WireError(.invalidValue, "packed heatmap: \(cell.date) is not one of its \(count) days")
                }
                cells[index] = PackedCell(cell)
            }
        }
        return WirePackedHeatmap(from: from, to: to, weekStart: weekStart, cells: cells, labels: monthLabels)
    }
}
