import StreakCore
import StreakWire

extension WireHeatmap {
    /// The wire form of a heatmap: absent cells stay present = false with no other field.
    init(_ heatmap: Heatmap) {
        self.init()
        from = heatmap.from
        to = heatmap.to
        weekStart = heatmap.weekStart
        weeks = heatmap.weeks.map(WireHeatmapWeek.init)
        monthLabels = heatmap.monthLabels.map(WireMonthLabel.init)
        legend = heatmap.legend.map(WireLegendEntry.init)
    }
}

extension WireHeatmapWeek {
    /// The wire form of a heatmap column.
    init(_ week: HeatmapWeek) {
        self.init()
        start = week.start
        cells = week.cells.map { cell in cell.map(WireHeatmapCell.init) ?? WireHeatmapCell() }
    }
}

extension WireHeatmapCell {
    /// The wire form of a present cell.
    init(_ cell: HeatmapCell) {
        self.init()
        present = true
        date = cell.date
        completed = Int32(cell.completed)
        active = Int32(cell.active)
        level = Int32(cell.level.rawValue)
        percent = Int32(cell.percentage)
        accessibilityLabel = cell.accessibilityLabel ?? ""
        due = Int32(cell.due)
        rest = cell.isRestDay
    }
}

extension WireMonthLabel {
    /// The wire form of a month label.
    init(_ label: MonthLabel) {
        self.init()
        self.label = label.text
        weekIndex = Int32(label.weekIndex)
    }
}

extension WireLegendEntry {
    /// The wire form of a legend step.
    init(_ entry: LegendEntry) {
        self.init()
        level = Int32(entry.level.rawValue)
        minPercent = Int32(entry.minPercent)
        maxPercent = Int32(entry.maxPercent)
        description = entry.description
    }
}
