/// How long a name or a note is: its number of Unicode scalars (code points), the one count every
/// language has at hand (Swift's `unicodeScalars.count`, Python's `len(str)`, the UTF-8 lead bytes
/// in C), so that every client enforces the same limits as the server.
public enum TextLength {
    /// The longest habit name and rest-period note, in Unicode scalars.
    public static let maximum = 200

    /// The length of `text` in Unicode scalars.
    public static func of(_ text: String) -> Int {
        text.unicodeScalars.count
    }
}
