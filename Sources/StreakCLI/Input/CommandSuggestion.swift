/// "Did you mean `heatmap`?": the known name closest to a mistyped one.
public enum CommandSuggestion {
    /// The candidate within a small edit distance of `typed` (at most a third of its length, at
    /// least one edit), or one that `typed` is a prefix of; nil when none is close.
    public static func closest(to typed: String, among candidates: [String]) -> String? {
        let lowered = typed.lowercased()
        let prefixed = candidates.filter { $0.hasPrefix(lowered) }
        if prefixed.count == 1 { return prefixed[0] }
        let limit = max(1, lowered.count / 3)
        let scored = candidates.map { (name: $0, distance: distance(lowered, $0)) }
            .filter { $0.distance <= limit }
        return scored.min { $0.distance < $1.distance }?.name
    }

    /// The Damerau–Levenshtein distance (optimal string alignment) between two strings:
    /// insertions, deletions, substitutions and swaps of neighbours each cost one.
    public static func distance(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs)
        let b = Array(rhs)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var best = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    best = min(best, table[i - 2][j - 2] + 1)
                }
                table[i][j] = best
            }
        }
        return table[a.count][b.count]
    }
}
