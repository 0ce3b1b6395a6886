import StreakCore
public import StreakWire

/// Draws a heatmap as text: month labels above their columns, M/W/F on the left, one column
/// per week (two characters wide), and a legend.
///
/// With colour each cell is a `■` in one of GitHub's greens (256-colour palette); without,
/// the levels are `·` (none), `░` (light), `▒` (medium) and `█` (full), so the picture
/// still reads. A rest day (every habit excused) is `-`, in a neutral blue with colour. Days
/// outside the range or after "today" are blank.
public enum HeatmapRenderer {
    /// The 256-colour palette index of each level, dark grey then three greens.
    static let palette = [238, 22, 28, 40]
    /// The character of each level without colour.
    static let plainGlyphs = ["·", "░", "▒", "█"]
    static let margin = 2
    /// A rest day without colour, and its 256-colour palette index with colour.
    static let restGlyph = "-"
    static let restColor = 67

    /// The heatmap as lines of text, each ending in a newline.
    public static func render(_ heatmap: WireHeatmap, style: TerminalStyle) -> String {
        let weekStart = heatmap.weekStart ?? .monday
        let weekdays = Weekday.ordered(startingAt: weekStart)
        var lines: [String] = [labelLine(heatmap)]
        for row in 0..<7 {
            var line = rowLabel(weekdays[row])
            for week in heatmap.weeks {
                let cell = row < week.cells.count ? week.cells[row] : WireHeatmapCell()
                line += glyph(for: cell, style: style) + " "
            }
            lines.append(trimTrailing(line))
        }
        lines.append("")
        lines.append(legend(style: style))
        if heatmap.weeks.contains(where: { $0.cells.contains(where: \.rest) }) {
            lines.append(String(repeating: " ", count: margin) + restCell(style: style) + " rest day")
        }
        return lines.map { $0 + "\n" }.joined()
    }

    static func restCell(style: TerminalStyle) -> String {
        style.usesColor ? style.foreground("■", restColor) : restGlyph
    }

    /// The legend line: `Less · ░ ▒ █ More`, coloured blocks with colour.
    public static func legend(style: TerminalStyle) -> String {
        let cells = (0...3).map { cell(level: $0, style: style) }.joined(separator: " ")
        return String(repeating: " ", count: margin) + "Less \(cells) More"
    }

    static func glyph(for cell: WireHeatmapCell, style: TerminalStyle) -> String {
        guard cell.present else { return " " }
        if cell.rest { return restCell(style: style) }
        return self.cell(level: Int(cell.level), style: style)
    }

    static func cell(level: Int, style: TerminalStyle) -> String {
        let level = min(max(level, 0), 3)
        return style.usesColor ? style.foreground("■", palette[level]) : plainGlyphs[level]
    }

    static func rowLabel(_ weekday: Weekday) -> String {
        switch weekday {
        case .monday: "M "
        case .wednesday: "W "
        case .friday: "F "
        default: "  "
        }
    }

    /// Month labels placed at their week's column; a label that would overlap the previous one is dropped.
    public static func labelLine(_ heatmap: WireHeatmap) -> String {
        var characters: [Character] = Array(repeating: " ", count: margin + heatmap.weeks.count * 2 + 3)
        var nextFree = 0
        for label in heatmap.monthLabels.sorted(by: { $0.weekIndex < $1.weekIndex }) {
            let column = margin + Int(label.weekIndex) * 2
            guard column >= nextFree, column < characters.count else { continue }
            let text = Array(label.label)
            for (offset, character) in text.enumerated() where column + offset < characters.count {
                characters[column + offset] = character
            }
            nextFree = column + text.count + 1
        }
        return trimTrailing(String(characters))
    }

    static func trimTrailing(_ line: String) -> String {
        var line = line
        while line.last == " " { line.removeLast() }
        return line
    }
}
