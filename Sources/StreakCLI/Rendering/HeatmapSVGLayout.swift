/// Where things go in the SVG heatmap, in whole pixels (so the output never depends on how a
/// platform formats fractions).
struct HeatmapSVGLayout {
    /// A cell's side.
    static let cell = 11
    /// From one cell to the next.
    static let pitch = 14
    /// The weekday labels' column.
    static let left = 40
    /// The month labels' row.
    static let top = 24
    /// Around everything.
    static let padding = 10
    static let fontSize = 10

    let weeks: Int

    /// The width of the picture: the grid, or the legend when that is wider.
    var width: Int { max(Self.left + weeks * Self.pitch + Self.padding, Self.legendMinimumWidth) }
    /// The height: labels, seven rows and the legend.
    var height: Int { legendY + Self.cell + Self.padding }
    /// The legend's top edge.
    var legendY: Int { Self.top + 7 * Self.pitch + 8 }

    /// The legend's "Less ▪▪▪▪ More  ▪ Rest day" needs about this much.
    static let legendMinimumWidth = left + 230

    func x(week: Int) -> Int { Self.left + week * Self.pitch }
    func y(row: Int) -> Int { Self.top + row * Self.pitch }
}
