import StreakCLI
import Testing

/// Every theme's colours against WCAG 2.2, computed from the formula (see `WCAG`).
@Suite("Heatmap palettes")
struct HeatmapPaletteTests {
    /// Adjacent levels at least this far apart in contrast, so that they read in grayscale.
    static let grayscaleStep = 1.35

    @Test func theFormulaGivesTheKnownExtremes() {
        let white = RGBColor(hex: 0xffffff)
        let black = RGBColor(hex: 0x000000)
        #expect(WCAG.luminance(white) == 1)
        #expect(WCAG.luminance(black) == 0)
        #expect(WCAG.contrast(white, black) == 21)
        #expect(WCAG.contrast(black, white) == 21)
        // #767676 is the well-known lightest grey with 4.5:1 on white.
        #expect(WCAG.contrast(RGBColor(hex: 0x767676), white) > 4.5)
        #expect(WCAG.contrast(RGBColor(hex: 0x777777), white) < 4.5)
    }

    @Test(arguments: HeatmapTheme.allCases)
    func everyFillHasThreeToOneAgainstThePage(theme: HeatmapTheme) {
        let palette = theme.palette
        #expect(palette.levels.count == 4)
        for (level, fill) in palette.levels.enumerated() {
            let ratio = WCAG.contrast(fill, palette.background)
            #expect(ratio >= 3, "\(theme) level \(level) \(fill): \(ratio):1 against \(palette.background)")
        }
        let rest = WCAG.contrast(palette.rest, palette.background)
        #expect(rest >= 3, "\(theme) rest \(palette.rest): \(rest):1")
    }

    @Test(arguments: HeatmapTheme.allCases)
    func levelsReadInGrayscale(theme: HeatmapTheme) {
        let palette = theme.palette
        let luminances = palette.levels.map(WCAG.luminance)
        // More done is further from the page: darker on a light page, lighter on a dark one.
        let ordered = palette.isLight ? luminances.sorted(by: >) : luminances.sorted()
        #expect(luminances == ordered, "\(theme): levels not monotonic in luminance: \(luminances)")
        for level in 1..<palette.levels.count {
            let step = WCAG.contrast(palette.levels[level - 1], palette.levels[level])
            #expect(step >= Self.grayscaleStep, "\(theme): levels \(level - 1) and \(level) only \(step):1 apart")
        }
        #expect(palette.isLight == (WCAG.luminance(palette.background) > 0.5))
    }

    @Test(arguments: HeatmapTheme.allCases.filter { $0.palette.isLight })
    func noneIsLighterThanLevelOneOnALightPage(theme: HeatmapTheme) {
        let palette = theme.palette
        #expect(WCAG.luminance(palette.none) > WCAG.luminance(palette.fill(level: 1)))
    }

    @Test(arguments: HeatmapTheme.allCases)
    func textAndMarksStandOut(theme: HeatmapTheme) {
        let palette = theme.palette
        // Text: 4.5:1 (SC 1.4.3); the marks on level 3 and rest days: 3:1 against their fill.
        #expect(WCAG.contrast(palette.text, palette.background) >= 4.5)
        #expect(WCAG.contrast(palette.mark, palette.fill(level: 3)) >= 3)
        #expect(WCAG.contrast(palette.mark, palette.rest) >= 3)
        // The rest day is not one of the levels.
        #expect(!palette.levels.contains(palette.rest))
    }

    @Test func themesByName() {
        #expect(HeatmapTheme(named: "Dark") == .dark)
        #expect(HeatmapTheme(named: "colourblind") == .colorblind)
        #expect(HeatmapTheme(named: "sepia") == nil)
        #expect(RGBColor(hex: 0x0a0b0c).hex == "#0a0b0c")
        #expect(HeatmapTheme.names == "light, dark, colorblind")
    }
}

/// The terminal palettes, from the RGB values xterm gives their 256-colour indexes.
@Suite("Terminal heatmap palettes")
struct TerminalHeatmapPaletteTests {
    @Test func xtermIndexesBecomeTheirColours() {
        #expect(TerminalHeatmapPalette.rgb(index: 16) == RGBColor(hex: 0x000000))
        #expect(TerminalHeatmapPalette.rgb(index: 22) == RGBColor(hex: 0x005f00))
        #expect(TerminalHeatmapPalette.rgb(index: 40) == RGBColor(hex: 0x00d700))
        #expect(TerminalHeatmapPalette.rgb(index: 231) == RGBColor(hex: 0xffffff))
        #expect(TerminalHeatmapPalette.rgb(index: 238) == RGBColor(hex: 0x444444))
        #expect(TerminalHeatmapPalette.rgb(index: 253) == RGBColor(hex: 0xdadada))
    }

    @Test(arguments: HeatmapTheme.allCases)
    func levelsGoFromThePageTowardsTheInk(theme: HeatmapTheme) {
        let colors = theme.terminalPalette
        let luminances = colors.levels.map { WCAG.luminance(TerminalHeatmapPalette.rgb(index: $0)) }
        // Light terminals (light, colorblind): none is the lightest, more is darker; dark: the other way.
        let ordered = theme.palette.isLight ? luminances.sorted(by: >) : luminances.sorted()
        #expect(luminances == ordered, "\(theme): \(colors.levels) → \(luminances)")
        #expect(Set(luminances).count == 4)
        if theme.palette.isLight {
            #expect(luminances[0] > luminances[1], "\(theme): the empty colour is not lighter than level 1")
        }
        #expect(!colors.levels.contains(colors.rest))
    }

    @Test func theDarkThemeIsTheGreensOfBefore() {
        #expect(TerminalHeatmapPalette.dark.levels == [238, 22, 28, 40])
        #expect(TerminalHeatmapPalette.dark.rest == 67)
    }
}
