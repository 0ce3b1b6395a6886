public import StreakCore
public import StreakWire

/// Draws a heatmap answer as SVG, in pure Swift: one `rect` per present day with a `<title>`
/// holding the day's accessibility label (absent days are not drawn), month labels above the
/// week they start in, the locale's short weekday names from the week's first day, a legend
/// ("Less … More") and, for screen readers, `role="img"` labelled by a title and a description
/// naming the range and the current and longest streak.
///
/// Colour is never the only cue: the fullest level (3) is filled with a pattern that carries a
/// dot, rest days with one that carries a dash, and every cell has its label as a title. The
/// output is deterministic: whole-pixel coordinates, attributes in a fixed order.
public enum HeatmapSVGRenderer {
    /// The SVG document (no XML declaration, so that it can be inlined in HTML), ending in a newline.
    /// - Parameters:
    ///   - heatmap: the server's heatmap; cells with an accessibility label keep it.
    ///   - streak: the streak named in the description, if any.
    ///   - theme: the colours.
    ///   - weekdayNames: short weekday names indexed Sunday first (a locale's `shortWeekdaySymbols`).
    ///   - idPrefix: the prefix of every `id` in the picture, unique per page when several are inlined.
    public static func render(
        _ heatmap: WireHeatmap,
        streak: WireStreakSummary? = nil,
        theme: HeatmapTheme = .light,
        weekdayNames: [String] = LocaleProfile.english.shortWeekdaySymbols,
        idPrefix: String = "heatmap"
    ) -> String {
        let palette = theme.palette
        let layout = HeatmapSVGLayout(weeks: heatmap.weeks.count)
        let ids = SVGIDs(prefix: idPrefix)
        let hasRest = heatmap.weeks.contains { $0.cells.contains { $0.present && $0.rest } }
        var lines: [String] = []
        lines.append(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(layout.width)\" height=\"\(layout.height)\" "
                + "viewBox=\"0 0 \(layout.width) \(layout.height)\" role=\"img\" "
                + "aria-labelledby=\"\(ids.title) \(ids.description)\" "
                + "font-family=\"\(fontFamily)\" font-size=\"\(HeatmapSVGLayout.fontSize)\">"
        )
        lines.append("<title id=\"\(ids.title)\">\(XMLText.escape(HeatmapSummary.title(heatmap)))</title>")
        let description = HeatmapSummary.description(heatmap, streak: streak, palette: palette)
        lines.append("<desc id=\"\(ids.description)\">\(XMLText.escape(description))</desc>")
        lines += definitions(palette: palette, ids: ids)
        lines.append(
            "<rect width=\"\(layout.width)\" height=\"\(layout.height)\" fill=\"\(palette.background)\"/>"
        )
        lines += monthLabels(heatmap, layout: layout, palette: palette)
        lines += weekdayLabels(heatmap, layout: layout, palette: palette, names: weekdayNames)
        lines.append("<g class=\"days\">")
        for (column, week) in heatmap.weeks.enumerated() {
            for (row, cell) in week.cells.prefix(7).enumerated() where cell.present {
                lines.append(
                    self.cell(
                        cell,
                        x: layout.x(week: column),
                        y: layout.y(row: row),
                        fill: fill(cell, palette: palette, ids: ids)
                    )
                )
            }
        }
        lines.append("</g>")
        lines += legend(heatmap, layout: layout, palette: palette, ids: ids, showsRest: hasRest)
        lines.append("</svg>")
        return lines.map { $0 + "\n" }.joined()
    }

    static let fontFamily = "DejaVu Sans, Verdana, Arial, sans-serif"

    /// The fill of a present cell: a colour, or a pattern for level 3 and rest days.
    static func fill(_ cell: WireHeatmapCell, palette: HeatmapPalette, ids: SVGIDs) -> String {
        if cell.rest { return "url(#\(ids.restPattern))" }
        return fill(level: Int(cell.level), palette: palette, ids: ids)
    }

    /// The fill of a level: its colour, or the dotted pattern for level 3.
    static func fill(level: Int, palette: HeatmapPalette, ids: SVGIDs) -> String {
        level >= 3 ? "url(#\(ids.fullPattern))" : palette.fill(level: level).hex
    }

    static func cell(_ cell: WireHeatmapCell, x: Int, y: Int, fill: String) -> String {
        let date = cell.date.map { " data-date=\"\($0)\"" } ?? ""
        let kind = cell.rest ? " data-rest=\"true\"" : ""
        let size = HeatmapSVGLayout.cell
        return "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(size)\" height=\"\(size)\" rx=\"2\" fill=\"\(fill)\""
            + "\(date) data-level=\"\(min(max(cell.level, 0), 3))\"\(kind)>"
            + "<title>\(XMLText.escape(HeatmapSummary.label(cell)))</title></rect>"
    }
}
