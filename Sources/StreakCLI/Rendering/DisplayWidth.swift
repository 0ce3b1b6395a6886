/// How many terminal columns text takes, by grapheme cluster: East Asian wide and full-width
/// characters and emoji take two, combining marks, zero-width joiners and variation selectors
/// ride on the cluster they belong to, control characters take none, everything else one.
///
/// The CLI pads tables and calendars by this width, never by bytes or `Character` count, so that
/// `🏃 Run`, `読書` and `Café` (with a combining accent) line up with plain ASCII names.
public enum DisplayWidth {
    /// The columns `text` takes on a terminal; ANSI escape sequences (`ESC [ ... m`) take none.
    public static func of(_ text: some StringProtocol) -> Int {
        var columns = 0
        var inEscape = false
        for character in text {
            if inEscape {
                if character.isLetter { inEscape = false }
                continue
            }
            if character == "\u{1B}" {
                inEscape = true
                continue
            }
            columns += of(character)
        }
        return columns
    }

    /// The columns one grapheme cluster takes: 0, 1 or 2.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.value < 0x20 || (0x7F..<0xA0).contains(first.value) { return 0 }
        // An emoji sequence (🏃‍♀️, 👍🏽, a flag) or a text character made emoji by U+FE0F.
        if scalars.contains(where: { $0.value == 0xFE0F }) || first.properties.isEmojiPresentation {
            return 2
        }
        if scalars.count > 1 && scalars.contains(where: { $0.value == 0x200D }) && first.properties.isEmoji {
            return 2
        }
        if first.properties.generalCategory == .nonspacingMark || first.properties.generalCategory == .enclosingMark
            || first.value == 0x200B || first.value == 0x200D
        {
            return 0
        }
        return isWide(first.value) ? 2 : 1
    }

    /// `text` padded with spaces on the right to `width` columns (unchanged when wider).
    public static func padRight(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - of(text)))
    }

    /// `text` padded with spaces on the left to `width` columns (unchanged when wider).
    public static func padLeft(_ text: String, to width: Int) -> String {
        String(repeating: " ", count: max(0, width - of(text))) + text
    }

    /// `text` when it fits in `width` columns, else its longest prefix that fits with `…` after
    /// it (at least the ellipsis).
    public static func truncated(_ text: String, to width: Int) -> String {
        of(text) <= width ? text : prefix(text, fitting: max(0, width - 1)) + "…"
    }

    /// The longest prefix of `text` that fits in `width` columns.
    public static func prefix(_ text: String, fitting width: Int) -> String {
        var result = ""
        var used = 0
        for character in text {
            let columns = of(character)
            guard used + columns <= width else { break }
            result.append(character)
            used += columns
        }
        return result
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges of Unicode's EastAsianWidth.txt, folded into
    /// the blocks that hold them.
    static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3,
            0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F, 0x2693, 0x26A1, 0x26AA...0x26AB,
            0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE, 0x26D4, 0x26EA, 0x26F2...0x26F3, 0x26F5, 0x26FA,
            0x26FD, 0x2705, 0x270A...0x270B, 0x2728, 0x274C, 0x274E, 0x2753...0x2755, 0x2757,
            0x2795...0x2797, 0x27B0, 0x27BF, 0x2B1B...0x2B1C, 0x2B50, 0x2B55,
            0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
            0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF,
            0x1F004, 0x1F0CF, 0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F251, 0x1F300...0x1F64F,
            0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB, 0x1F90C...0x1F9FF, 0x1FA70...0x1FAFF,
            0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
