public import StreakWire

/// Draws a month page like `cal`: the title centred, two-letter weekday names in the page's
/// order, six rows of days. Days outside the month are blank. Contributing (highlighted)
/// days are in reverse video with colour and followed by `*` without; today is underlined
/// with colour and followed by `<` without (`+` when it is also highlighted). A rest day is dimmed
/// with colour and followed by `-` without.
public enum MonthPageRenderer {
    /// The page as text, each line ending in a newline.
    public static func render(_ page: WireMonthPage, style: TerminalStyle) -> String {
        let cellWidth = 3
        let lineWidth = 7 * cellWidth + 6
        let title = page.title.isEmpty ? "\(page.year)-\(page.month)" : page.title
        let padding = max(0, (lineWidth - title.count) / 2)
        var lines = [String(repeating: " ", count: padding) + title]
        lines.append(
            page.weekdaySymbols.map { symbol in
                String(symbol.prefix(2)).padding(toLength: cellWidth, withPad: " ", startingAt: 0)
            }.joined(separator: " ").trimmingTrailingSpaces()
        )
        for row in 0..<(page.days.count / 7) {
            let cells = page.days[(row * 7)..<(row * 7 + 7)].map { cell($0, style: style) }
            lines.append(cells.joined(separator: " ").trimmingTrailingSpaces())
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        var note = style.usesColor ? "highlighted: counts towards the streak" : "* counts towards the streak  < today"
        if page.days.contains(where: { $0.inMonth && $0.rest }) {
            note += style.usesColor ? "  dimmed: rest day" : "  - rest day"
        }
        lines.append("")
        lines.append(style.dim(note))
        return lines.map { $0 + "\n" }.joined()
    }

    static func cell(_ day: WireMonthDay, style: TerminalStyle) -> String {
        guard day.inMonth else { return "   " }
        let number = day.day < 10 ? " \(day.day)" : "\(day.day)"
        if style.usesColor {
            var text = number
            if day.highlighted { text = style.reverse(text) }
            if day.rest && !day.highlighted { text = style.dim(text) }
            if day.today { text = style.underline(style.bold(text)) }
            return text + " "
        }
        let mark = day.today ? (day.highlighted ? "+" : "<") : (day.highlighted ? "*" : (day.rest ? "-" : " "))
        return number + mark
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
