import StreakCore
import StreakWire

/// The `id`s of one picture, all starting with its prefix.
struct SVGIDs {
    let prefix: String

    init(prefix: String) {
        // Only characters that are safe in an id and in `url(#...)`.
        let allowed = prefix.unicodeScalars.filter {
            $0.properties.isAlphabetic || "0123456789-_".unicodeScalars.contains($0)
        }
        let cleaned = String(String.UnicodeScalarView(allowed))
        self.prefix =
            cleaned.isEmpty || !(cleaned.unicodeScalars.first?.properties.isAlphabetic ?? false)
            ? "heatmap" + cleaned : cleaned
    }

    var title: String { prefix + "-title" }
    var description: String { prefix + "-desc" }
    var fullPattern: String { prefix + "-level3" }
    var restPattern: String { prefix + "-rest" }
}

extension HeatmapSVGRenderer {
    /// The two patterns: level 3 with a dot, a rest day with a dash (in the palette's mark colour).
    static func definitions(palette: HeatmapPalette, ids: SVGIDs) -> [String] {
        let units =
            "patternUnits=\"objectBoundingBox\" patternContentUnits=\"objectBoundingBox\" width=\"1\" height=\"1\""
        return [
            "<defs>",
            "<pattern id=\"\(ids.fullPattern)\" \(units)>"
                + "<rect width=\"1\" height=\"1\" fill=\"\(palette.fill(level: 3))\"/>"
                + "<circle cx=\"0.5\" cy=\"0.5\" r=\"0.2\" fill=\"\(palette.mark)\"/></pattern>",
            "<pattern id=\"\(ids.restPattern)\" \(units)>"
                + "<rect width=\"1\" height=\"1\" fill=\"\(palette.rest)\"/>"
                + "<rect x=\"0.2\" y=\"0.4\" width=\"0.6\" height=\"0.2\" fill=\"\(palette.mark)\"/></pattern>",
            "</defs>",
        ]
    }

    /// The month labels above the week each starts in; one that would overlap the previous is dropped.
    static func monthLabels(_ heatmap: WireHeatmap, layout: HeatmapSVGLayout, palette: HeatmapPalette) -> [String] {
        var lines = ["<g class=\"months\" fill=\"\(palette.text)\" aria-hidden=\"true\">"]
        var nextFree = Int.min
        for label in heatmap.monthLabels.sorted(by: { $0.weekIndex < $1.weekIndex }) {
            let week = Int(label.weekIndex)
            guard week >= 0, week < heatmap.weeks.count, week >= nextFree else { continue }
            let y = HeatmapSVGLayout.top - 8
            lines.append("<text x=\"\(layout.x(week: week))\" y=\"\(y)\">\(XMLText.escape(label.label))</text>")
            nextFree = week + 3
        }
        lines.append("</g>")
        return lines
    }

    /// The short names of the seven rows, from the heatmap's first weekday.
    static func weekdayLabels(
        _ heatmap: WireHeatmap,
        layout: HeatmapSVGLayout,
        palette: HeatmapPalette,
        names: [String]
    ) -> [String] {
        let x = HeatmapSVGLayout.left - 6
        var lines = ["<g class=\"weekdays\" fill=\"\(palette.text)\" text-anchor=\"end\" aria-hidden=\"true\">"]
        for (row, weekday) in Weekday.ordered(startingAt: heatmap.weekStart ?? .monday).enumerated() {
            let index = weekday.rawValue - 1
            let name = names.indices.contains(index) ? names[index] : WeekdayNames.name(weekday).capitalized
            let y = layout.y(row: row) + HeatmapSVGLayout.cell - 2
            lines.append("<text x=\"\(x)\" y=\"\(y)\">\(XMLText.escape(name))</text>")
        }
        lines.append("</g>")
        return lines
    }

    /// "Less", the four level swatches, "More", and a rest-day swatch when the picture has one.
    static func legend(
        _ heatmap: WireHeatmap,
        layout: HeatmapSVGLayout,
        palette: HeatmapPalette,
        ids: SVGIDs,
        showsRest: Bool
    ) -> [String] {
        let size = HeatmapSVGLayout.cell
        let y = layout.legendY
        let baseline = y + size - 2
        var x = HeatmapSVGLayout.left
        var lines = ["<g class=\"legend\" fill=\"\(palette.text)\">"]
        lines.append("<text x=\"\(x)\" y=\"\(baseline)\">Less</text>")
        x += 30
        for level in 0...3 {
            let fill = fill(level: level, palette: palette, ids: ids)
            let title = legendTitle(heatmap, level: level)
            lines.append(
                "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(size)\" height=\"\(size)\" rx=\"2\" fill=\"\(fill)\" "
                    + "data-legend-level=\"\(level)\"><title>\(XMLText.escape(title))</title></rect>"
            )
            x += HeatmapSVGLayout.pitch
        }
        lines.append("<text x=\"\(x + 2)\" y=\"\(baseline)\">More</text>")
        if showsRest {
            x += 56
            lines.append(
                "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(size)\" height=\"\(size)\" rx=\"2\" "
                    + "fill=\"url(#\(ids.restPattern))\" data-legend-rest=\"true\"><title>rest day</title></rect>"
            )
            lines.append("<text x=\"\(x + size + 5)\" y=\"\(baseline)\">Rest day</text>")
        }
        lines.append("</g>")
        return lines
    }

    /// The legend entry's words for a level (`1–49%`), or the level's number when the answer has none.
    static func legendTitle(_ heatmap: WireHeatmap, level: Int) -> String {
        guard let entry = heatmap.legend.first(where: { Int($0.level) == level }) else {
            return ["no habits done", "some habits done", "most habits done", "all habits done"][level]
        }
        if !entry.description.isEmpty { return entry.description }
        return entry.minPercent == entry.maxPercent
            ? "\(entry.minPercent)%" : "\(entry.minPercent)–\(entry.maxPercent)%"
    }
}
