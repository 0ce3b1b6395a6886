public import StreakWire

/// Draws rest periods, one per line: `3  2024-07-01 – 2024-07-14  Summer holiday`.
public enum RestListRenderer {
    /// The list, each line ending in a newline; a hint when there is none.
    public static func render(_ periods: [WireRestPeriod]) -> String {
        guard !periods.isEmpty else { return "no rest periods; add one with: streak rest add FROM TO\n" }
        return periods.map { line($0) + "\n" }.joined()
    }

    /// One period: id, days and note.
    public static func line(_ period: WireRestPeriod) -> String {
        let from = period.from.map(String.init(describing:)) ?? "?"
        let to = period.to.map(String.init(describing:)) ?? "?"
        let days = from == to ? from : "\(from) – \(to)"
        return ("\(period.id)  \(days)  \(period.note)").trimmingTrailingSpaces()
    }
}
