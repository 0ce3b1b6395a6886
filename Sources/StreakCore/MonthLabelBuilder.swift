/// A month name placed above a heatmap column.
public struct MonthLabel: Hashable, Sendable {
    /// The text, e.g. "Jan".
    public var text: String
    /// The index of the column (week) it stands above.
    public var weekIndex: Int

    /// Creates a label.
    public init(text: String, weekIndex: Int) {
        self.text = text
        self.weekIndex = weekIndex
    }
}

/// Places month labels above heatmap columns.
public enum MonthLabelBuilder {
    /// The minimum distance, in weeks, between two labels.
    public static let minimumWeeksBetweenLabels = 3

    /// Labels for columns whose first in-range days are `weekStarts`, in order.
    ///
    /// Week 0 always gets the month of its start. Week i > 0 gets a label when its start's
    /// month differs from week i-1's **and** it is at least three weeks after the last label
    /// placed; a change that comes too soon is skipped, not moved.
    public static func labels(weekStarts: [CivilDate], locale: LocaleProfile = .english) -> [MonthLabel] {
        guard let first = weekStarts.first else { return [] }
        var labels = [MonthLabel(text: locale.shortStandaloneMonthSymbols[first.month - 1], weekIndex: 0)]
        var lastPlaced = 0
        for index in weekStarts.indices.dropFirst() {
            let start = weekStarts[index]
            let previous = weekStarts[index - 1]
            let monthChanged = start.month != previous.month || start.year != previous.year
            if monthChanged && index - lastPlaced >= minimumWeeksBetweenLabels {
                labels.append(MonthLabel(text: locale.shortStandaloneMonthSymbols[start.month - 1], weekIndex: index))
                lastPlaced = index
            }
        }
        return labels
    }
}
