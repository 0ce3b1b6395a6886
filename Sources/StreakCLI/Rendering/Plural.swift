/// Counts with their noun in agreement: `1 habit`, `2 habits`, `0 rest periods`.
public enum Plural {
    /// `count` and `noun`, with `plural` (default: `noun` + "s") unless `count` is 1.
    public static func of(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }

    /// "was" for one, "were" for any other count.
    public static func was(_ count: Int) -> String {
        count == 1 ? "was" : "were"
    }
}
