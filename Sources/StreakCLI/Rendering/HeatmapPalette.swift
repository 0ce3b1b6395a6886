/// The colours of one heatmap theme: a page background, text, the four level fills, a rest-day
/// fill and the colour of the marks drawn on level 3 and rest-day cells.
///
/// Level 0 is a day with nothing done (the "none" fill), levels 1 to 3 are the bands above it.
/// Every level fill and the rest-day fill has at least 3:1 contrast against the background
/// (WCAG 2.2 SC 1.4.11, non-text contrast), and the levels differ in relative luminance so that
/// they still read in grayscale: on a light page the none fill is the lightest and level 3 the
/// darkest, on a dark page the other way round. `HeatmapPaletteTests` computes the ratios from
/// WCAG's formula for every theme.
public struct HeatmapPalette: Hashable, Sendable {
    /// The page (and picture) background.
    public var background: RGBColor
    /// Labels, legend and headings.
    public var text: RGBColor
    /// The fills of levels 0...3; `levels[0]` is the none fill (nothing done).
    public var levels: [RGBColor]
    /// The fill of a rest day (every habit excused).
    public var rest: RGBColor
    /// The mark drawn over level 3 and rest-day cells, so that colour is not the only cue.
    public var mark: RGBColor
    /// True when the background is light (more done is darker).
    public var isLight: Bool

    /// The none fill: a day on which nothing was done (level 0).
    public var none: RGBColor { levels[0] }

    /// The fill of `level`, clamped to 0...3.
    public func fill(level: Int) -> RGBColor {
        levels[min(max(level, 0), levels.count - 1)]
    }

    /// Greens on white.
    public static let light = HeatmapPalette(
        background: RGBColor(hex: 0xffffff),
        text: RGBColor(hex: 0x1f2328),
        levels: [RGBColor(hex: 0x8c959f), RGBColor(hex: 0x44804f), RGBColor(hex: 0x235c32), RGBColor(hex: 0x0f3d1e)],
        rest: RGBColor(hex: 0x5a6fb0),
        mark: RGBColor(hex: 0xffffff),
        isLight: true
    )

    /// Greens on a near-black page; more done is lighter.
    public static let dark = HeatmapPalette(
        background: RGBColor(hex: 0x0d1117),
        text: RGBColor(hex: 0xe6edf3),
        levels: [RGBColor(hex: 0x5c636d), RGBColor(hex: 0x3d8a4e), RGBColor(hex: 0x4fb862), RGBColor(hex: 0x9ee6a2)],
        rest: RGBColor(hex: 0x7c93d6),
        mark: RGBColor(hex: 0x0d1117),
        isLight: false
    )

    /// Blues on white with an orange rest day: no red against green, so it reads with the
    /// common colour-vision deficiencies (protanopia, deuteranopia), and in grayscale.
    public static let colorblind = HeatmapPalette(
        background: RGBColor(hex: 0xffffff),
        text: RGBColor(hex: 0x1f2328),
        levels: [RGBColor(hex: 0x939393), RGBColor(hex: 0x4579b0), RGBColor(hex: 0x1f5089), RGBColor(hex: 0x0c2d5e)],
        rest: RGBColor(hex: 0xb35900),
        mark: RGBColor(hex: 0xffffff),
        isLight: true
    )
}
