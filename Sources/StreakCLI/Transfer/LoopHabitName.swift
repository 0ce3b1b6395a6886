/// Loop lets a habit's name hold any text, line breaks and tabs included (Habits.csv quotes such
/// a name), but a Streakd habit name has no control characters. The reader turns each run of
/// control characters, with the spaces around it, into one space and trims the ends.
enum LoopHabitName {
    /// `name` with its control characters turned into single spaces, trimmed; nil when it has none.
    static func cleaned(_ name: String) -> String? {
        guard name.unicodeScalars.contains(where: isControl) else { return nil }
        var scalars = String.UnicodeScalarView()
        var pendingSpace = false
        var pendingBlanks = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            if isControl(scalar) {
                pendingSpace = true
                pendingBlanks.removeAll()
            } else if scalar.properties.isWhitespace {
                if !pendingSpace { pendingBlanks.append(scalar) }
            } else {
                if pendingSpace {
                    if !scalars.isEmpty { scalars.append(" ") }
                } else {
                    scalars.append(contentsOf: pendingBlanks)
                }
                pendingSpace = false
                pendingBlanks.removeAll()
                scalars.append(scalar)
            }
        }
        let text = String(scalars)
        return String(text.drop(while: \.isWhitespace))
    }

    /// A control character (Unicode general category Cc: line breaks, tabs, U+0000 ...).
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control
    }
}
