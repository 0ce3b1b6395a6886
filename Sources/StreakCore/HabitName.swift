/// The habit name rule (docs/PROTOCOL.md section 2.2), one definition for the store that refuses a
/// name and the clients that check it before sending: 1 to 200 Unicode scalars (`TextLength`), at
/// least one character that is not white space, no control character (U+0000 included).
public enum HabitName {
    /// Why `name` is refused (the message the server answers INVALID_ARGUMENT with), or nil when
    /// it is a valid habit name.
    public static func problem(_ name: String) -> String? {
        let length = TextLength.of(name)
        guard length > 0, length <= TextLength.maximum else {
            return "a habit name is 1 to \(TextLength.maximum) characters (Unicode scalars; got \(length))"
        }
        guard name.contains(where: { !$0.isWhitespace }) else {
            return "a habit name needs a character that is not white space"
        }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return "a habit name may not contain control characters"
        }
        return nil
    }
}
