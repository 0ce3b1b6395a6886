public import StreakCore
public import StreakWire

/// What an HTML page shows: the heatmap and, when given, the streak, a month page and the
/// weekday chart, in one theme.
public struct HTMLReport: Sendable {
    /// The heatmap (with the server's accessibility labels on its cells, ideally).
    public var heatmap: WireHeatmap
    /// The current and longest streak.
    public var streak: WireStreakSummary?
    /// The month page (a calendar of one month).
    public var monthPage: WireMonthPage?
    /// Completions per weekday.
    public var weekdayChart: WireWeekdayChart?
    /// The colours.
    public var theme: HeatmapTheme
    /// The locale the server's names (months, weekdays) are in, e.g. `en_US`.
    public var locale: String
    /// Short weekday names, Sunday first, for the heatmap's rows.
    public var weekdayNames: [String]

    /// A report; everything but the heatmap is optional.
    public init(
        heatmap: WireHeatmap,
        streak: WireStreakSummary? = nil,
        monthPage: WireMonthPage? = nil,
        weekdayChart: WireWeekdayChart? = nil,
        theme: HeatmapTheme = .light,
        locale: String = "en_US",
        weekdayNames: [String] = LocaleProfile.english.shortWeekdaySymbols
    ) {
        self.heatmap = heatmap
        self.streak = streak
        self.monthPage = monthPage
        self.weekdayChart = weekdayChart
        self.theme = theme
        self.locale = locale
        self.weekdayNames = weekdayNames
    }

    /// The locale as a BCP 47 language tag for `lang` (`en_US` → `en-US`); `en` when it is not
    /// a plausible tag.
    public var languageTag: String {
        let tag = locale.replacingOccurrences(of: "_", with: "-")
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        func isAlphanumeric(_ part: Substring) -> Bool {
            part.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
            }
        }
        guard let language = parts.first, (2...3).contains(language.count),
            language.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("A"..."Z").contains($0) }),
            parts.allSatisfy({ (1...8).contains($0.count) && isAlphanumeric($0) })
        else { return "en" }
        return tag
    }
}
