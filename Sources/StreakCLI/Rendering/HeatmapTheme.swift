/// The heatmap themes `--theme` names: `light`, `dark` and `colorblind`.
public enum HeatmapTheme: String, CaseIterable, Hashable, Sendable {
    /// Greens on white.
    case light
    /// Greens on a near-black page.
    case dark
    /// Blues and orange on white, safe for red-green colour blindness.
    case colorblind

    /// The theme's colours for SVG and HTML.
    public var palette: HeatmapPalette {
        switch self {
        case .light: .light
        case .dark: .dark
        case .colorblind: .colorblind
        }
    }

    /// The theme `name` stands for (`light`, `dark`, `colorblind`, any case; `colourblind` too).
    /// - Returns: nil for any other name.
    public init?(named name: String) {
        switch name.lowercased() {
        case "light": self = .light
        case "dark": self = .dark
        case "colorblind", "colourblind", "color-blind", "colour-blind": self = .colorblind
        default: return nil
        }
    }

    /// `light, dark, colorblind`, for messages.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
