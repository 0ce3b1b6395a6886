import StreakCore
public import StreakWire

/// Draws a heatmap as text: month labels above their columns, M/W/F on the left, one column
/// per week (two characters wide), and a legend.
///
/// With colour each cell is a `■` in the theme's 256-colour palette (`TerminalHeatmapPalette`;
/// dark: GitHub's greens); without, the levels are `·` (none), `░` (light), `▒` (medium) and
/// `█` (full), so the picture still reads. A rest day (every habit excused) is `-`, in a neutral
/// colour with colour. Days outside the range or after "today" are blank. Given a width, it
/// shows the most recent weeks that fit (two columns each after a two-column margin) and no
/// line is wider.
public enum HeatmapRenderer {
    /// The 256-colour palette index of each level in the dark theme, dark grey then three greens.
    static let palette = TerminalHeatmapPalette.dark.levels
    /// The character of each level without colour.
    static let plainGlyphs = ["·", "░", "▒", "█"]
    static let margin = 2
    /// A rest day without colour, and its 256-colour palette index with colour.
    static let restGlyph = "-"

    /// The heatmap as lines of text, each ending in a newline.
    /// - Parameters:
    ///   - heatmap: the server's heatmap.
    ///   - style: colour or plain characters.
    ///   - theme: the colours (only with colour).
    ///   - width: the terminal's width in columns; nil for no limit.
    public static func render(
        _ heatmap: WireHeatmap,
        style: TerminalStyle,
        theme: HeatmapTheme = .dark,
        width: Int? = nil
    ) -> String {
        let colors = theme.terminalPalette
        let heatmap = width.map { trimmed(heatmap, toWeeks: weeksThatFit(width: $0)) } ?? heatmap
        let weekStart = heatmap.weekStart ?? .monday
        let weekdays = Weekday.ordered(startingAt: weekStart)
        var lines: [String] = [labelLine(heatmap, width: width)]
        for row in 0..<7 {
            var line = rowLabel(weekdays[row])
            for week in heatmap.weeks {
                let cell = row < week.cells.count ? week.cells[row] : WireHeatmapCell()
                line += glyph(for: cell, style: style, colors: colors) + " "
            }
            lines.append(trimTrailing(line))
        }
        lines += keys(heatmap, style: style, theme: theme, width: width)
        return lines.map { $0 + "\n" }.joined()
    }

    /// The blank line, the legend and the rest day's key, each left out when it is wider than `width`.
    static func keys(_ heatmap: WireHeatmap, style: TerminalStyle, theme: HeatmapTheme, width: Int?) -> [String] {
        func fits(_ plain: String) -> Bool { width.map { DisplayWidth.of(plain) <= $0 } ?? true }
        var keys: [String] = []
        if fits(legend(style: .plain)) { keys.append(legend(style: style, theme: theme)) }
        let restKey = String(repeating: " ", count: margin) + "\(restGlyph) rest day"
        if heatmap.weeks.contains(where: { $0.cells.contains(where: \.rest) }), fits(restKey) {
            keys.append(
                String(repeating: " ", count: margin) + restCell(style: style, colors: theme.terminalPalette)
                    + " rest day"
            )
        }
        return keys.isEmpty ? [] : [""] + keys
    }

    /// How many week columns fit in `width` columns: two each, after the two-column margin (at least one).
    public static func weeksThatFit(width: Int) -> Int {
        max(1, (width - margin) / 2)
    }

    /// The most recent `count` weeks of `heatmap`, its month labels moved with them. A label of a
    /// week left out is dropped, but for the month the first week kept is in: its label moves to
    /// that week when the next label is at least `labelSpacing` weeks later (the server's spacing),
    /// so a month cut at the left edge never pushes out the label of a month that starts in view.
    public static func trimmed(_ heatmap: WireHeatmap, toWeeks count: Int) -> WireHeatmap {
        let dropped = heatmap.weeks.count - max(count, 0)
        guard dropped > 0 else { return heatmap }
        var result = heatmap
        result.weeks = Array(heatmap.weeks.suffix(max(count, 0)))
        result.from = result.weeks.first?.start ?? heatmap.from
        result.monthLabels = heatmap.monthLabels.compactMap { label in
            let index = Int(label.weekIndex) - dropped
            return index >= 0 ? WireMonthLabel(label: label.label, weekIndex: Int32(index)) : nil
        }
        let firstKept = result.monthLabels.map { Int($0.weekIndex) }.min()
        guard
            let carried = heatmap.monthLabels.filter({ (0..<dropped).contains(Int($0.weekIndex)) }).max(by: {
                $0.weekIndex < $1.weekIndex
            }),
            // The next label three weeks on or more, and after the carried one's text and a blank
            // column (`szept.`, `juill.` are six columns: three weeks).
            firstKept.map({ $0 >= labelSpacing && 2 * $0 >= DisplayWidth.of(carried.label) + 1 }) ?? true,
            let labelled = heatmap.weeks[Int(carried.weekIndex)].start, let first = result.weeks.first?.start,
            labelled.year == first.year && labelled.month == first.month
        else { return result }
        result.monthLabels.insert(WireMonthLabel(label: carried.label, weekIndex: 0), at: 0)
        return result
    }

    /// The fewest weeks between two month labels, as the server places them.
    static let labelSpacing = 3

    static func restCell(style: TerminalStyle, colors: TerminalHeatmapPalette = .dark) -> String {
        style.usesColor ? style.foreground("■", colors.rest) : restGlyph
    }

    /// The legend line: `Less · ░ ▒ █ More`, coloured blocks with colour.
    public static func legend(style: TerminalStyle, theme: HeatmapTheme = .dark) -> String {
        let cells = (0...3).map { cell(level: $0, style: style, colors: theme.terminalPalette) }
        return String(repeating: " ", count: margin) + "Less \(cells.joined(separator: " ")) More"
    }

    static func glyph(for cell: WireHeatmapCell, style: TerminalStyle, colors: TerminalHeatmapPalette) -> String {
        guard cell.present else { return " " }
        if cell.rest { return restCell(style: style, colors: colors) }
        return self.cell(level: Int(cell.level), style: style, colors: colors)
    }

    static func cell(level: Int, style: TerminalStyle, colors: TerminalHeatmapPalette = .dark) -> String {
        let level = min(max(level, 0), 3)
        return style.usesColor ? style.foreground("■", colors.color(level: level)) : plainGlyphs[level]
    }

    static func rowLabel(_ weekday: Weekday) -> String {
        switch weekday {
        case .monday: "M "
        case .wednesday: "W "
        case .friday: "F "
        default: "  "
        }
    }

    /// Month labels placed at their week's column; a label that would overlap the previous one is
    /// dropped, and the line is cut at `width` columns.
    ///
    /// Positions and the cut are in terminal columns (`DisplayWidth`), so a label of wide characters
    /// (`3月`, `3월`) stands above its week like `Mar` does, and the cut never splits a character.
    public static func labelLine(_ heatmap: WireHeatmap, width: Int? = nil) -> String {
        let gridWidth = margin + heatmap.weeks.count * 2 + 3
        let limit = min(gridWidth, width.map { max($0, 0) } ?? gridWidth)
        var line = ""
        var used = 0
        for label in heatmap.monthLabels.sorted(by: { $0.weekIndex < $1.weekIndex }) {
            let column = margin + Int(label.weekIndex) * 2
            // One blank column between two labels.
            guard column >= (used == 0 ? 0 : used + 1), column < limit else { continue }
            let text = DisplayWidth.prefix(label.label, fitting: limit - column)
            guard !text.isEmpty else { continue }
            line += String(repeating: " ", count: column - used) + text
            used = column + DisplayWidth.of(text)
        }
        return trimTrailing(line)
    }

    static func trimTrailing(_ line: String) -> String {
        var line = line
        while line.last == " " { line.removeLast() }
        return line
    }
}
