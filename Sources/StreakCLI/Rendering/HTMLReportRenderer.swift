/// A self-contained HTML page (no scripts, no external fetches: the heatmap is inline SVG and
/// the style sheet is in the page) with a heading, the heatmap, the streak, the month page and
/// the weekday chart, the last two as HTML tables. The page's own words are English (`lang="en"`);
/// the parts named by the server (months, weekdays) carry the locale's language tag.
public enum HTMLReportRenderer {
    /// The page, ending in a newline.
    public static func render(_ report: HTMLReport) -> String {
        let palette = report.theme.palette
        let localeLang = report.languageTag
        let lang = localeLang.lowercased().hasPrefix("en") ? "" : " lang=\"\(XMLText.escape(localeLang))\""
        var heading = "Habits"
        if let to = report.heatmap.to { heading += " up to \(to)" }
        var lines = [
            "<!DOCTYPE html>",
            "<html lang=\"en\">",
            "<head>",
            "<meta charset=\"utf-8\"/>",
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>",
            "<meta name=\"color-scheme\" content=\"\(palette.isLight ? "light" : "dark")\"/>",
            "<title>Streakd: \(XMLText.escape(heading.prefix(1).lowercased() + heading.dropFirst()))</title>",
            "<style>",
            styleSheet(palette),
            "</style>",
            "</head>",
            "<body>",
            "<main>",
            "<h1>\(XMLText.escape(heading))</h1>",
            "<section aria-labelledby=\"heatmap-heading\">",
            "<h2 id=\"heatmap-heading\">Heatmap</h2>",
            "<div class=\"heatmap\"\(lang)>",
        ]
        lines.append(
            HeatmapSVGRenderer.render(
                report.heatmap,
                streak: report.streak,
                theme: report.theme,
                weekdayNames: report.weekdayNames,
                idPrefix: "heatmap"
            ).trimmingTrailingNewlines()
        )
        lines += ["</div>", "</section>"]
        if let streak = report.streak {
            lines += streakSection(
                streak,
                nothingDueToday: StreakRenderer.nothingDue(on: streak.asOf, in: report.heatmap)
            )
        }
        if let page = report.monthPage { lines += monthSection(page, palette: palette, lang: lang) }
        if let chart = report.weekdayChart { lines += weekdaySection(chart, lang: lang) }
        lines += ["</main>", "</body>", "</html>"]
        return lines.map { $0 + "\n" }.joined()
    }

    static func styleSheet(_ palette: HeatmapPalette) -> String {
        """
        body { margin: 0; background: \(palette.background); color: \(palette.text); \
        font: 16px/1.5 "DejaVu Sans", Verdana, Arial, sans-serif; }
        main { max-width: 62rem; margin: 0 auto; padding: 1rem 1.5rem 2rem; }
        h1 { font-size: 1.6rem; margin: 0.5rem 0 1rem; }
        h2 { font-size: 1.2rem; margin: 1.5rem 0 0.5rem; }
        .heatmap svg { width: 100%; height: auto; }
        .streak-current { font-size: 1.4rem; font-weight: bold; }
        p { margin: 0.25rem 0; }
        table { border-collapse: collapse; margin: 0.5rem 0; }
        caption { text-align: left; padding-bottom: 0.25rem; }
        th, td { padding: 0.2rem 0.55rem; text-align: right; }
        thead th { border-bottom: 1px solid \(palette.text); }
        tbody th { text-align: left; }
        td.today { font-weight: bold; text-decoration: underline; }
        .swatch { display: inline-block; width: 0.7em; height: 0.7em; border-radius: 2px; margin-left: 0.3em; }
        .level0 { background: \(palette.fill(level: 0)); }
        .level1 { background: \(palette.fill(level: 1)); }
        .level2 { background: \(palette.fill(level: 2)); }
        .level3 { background: \(palette.fill(level: 3)); box-shadow: inset 0 0 0 0.2em \(palette.fill(level: 3)), \
        inset 0 0 0 0.35em \(palette.mark); }
        .rest { background: \(palette.rest); }
        .bar { display: inline-block; height: 0.7em; background: \(palette.fill(level: 2)); margin-right: 0.4em; }
        .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; \
        clip: rect(0 0 0 0); white-space: nowrap; }
        """
    }
}

extension String {
    func trimmingTrailingNewlines() -> String {
        var text = self
        while text.last == "\n" { text.removeLast() }
        return text
    }
}
