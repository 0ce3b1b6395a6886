/// Escaping for text and attribute values in SVG and HTML.
public enum XMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by entities, safe in element content and
    /// in quoted attribute values alike. Control characters other than tab, newline and carriage
    /// return (not allowed in XML 1.0) become U+FFFD.
    public static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || (0x7f...0x9f).contains(scalar.value):
                result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
