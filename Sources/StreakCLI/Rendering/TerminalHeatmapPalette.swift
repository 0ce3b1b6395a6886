/// A heatmap theme in a terminal: xterm 256-colour palette indexes for the four levels and the
/// rest day (cells are `■` in these colours).
///
/// `dark` (the terminal's default) is the greens of before, for dark backgrounds: more done is
/// brighter. `light` and `colorblind` are for light backgrounds: the none colour is a light grey,
/// lighter than level 1, and more done is darker. `HeatmapPaletteTests` checks the order from
/// the palette's RGB values.
public struct TerminalHeatmapPalette: Hashable, Sendable {
    /// The palette indexes of levels 0...3.
    public var levels: [Int]
    /// The palette index of a rest day.
    public var rest: Int

    /// The index of `level`, clamped to 0...3.
    public func color(level: Int) -> Int {
        levels[min(max(level, 0), levels.count - 1)]
    }

    /// Dark grey, then three greens, on a dark terminal.
    public static let dark = TerminalHeatmapPalette(levels: [238, 22, 28, 40], rest: 67)
    /// Light grey, then three greens getting darker, on a light terminal.
    public static let light = TerminalHeatmapPalette(levels: [253, 114, 34, 22], rest: 67)
    /// Light grey, then three blues getting darker, and an orange rest day, on a light terminal.
    public static let colorblind = TerminalHeatmapPalette(levels: [253, 110, 32, 18], rest: 166)

    /// The sRGB colour xterm shows for a 256-colour index (16...255: the 6×6×6 cube and the grey
    /// ramp; 0...15, the system colours, as xterm's defaults).
    public static func rgb(index: Int) -> RGBColor {
        switch index {
        case 232...255:
            let level = UInt8(8 + 10 * (index - 232))
            return RGBColor(red: level, green: level, blue: level)
        case 16...231:
            let steps: [UInt8] = [0, 95, 135, 175, 215, 255]
            let cube = index - 16
            return RGBColor(red: steps[cube / 36], green: steps[(cube / 6) % 6], blue: steps[cube % 6])
        default:
            let system: [UInt32] = [
                0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5,
                0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff,
            ]
            return RGBColor(hex: system[min(max(index, 0), 15)])
        }
    }
}

extension HeatmapTheme {
    /// The theme's colours in a terminal.
    public var terminalPalette: TerminalHeatmapPalette {
        switch self {
        case .light: .light
        case .dark: .dark
        case .colorblind: .colorblind
        }
    }
}
