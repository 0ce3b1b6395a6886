/// The habit name rule (docs/PROTOCOL.md section 2.2), one definition for the store that refuses a
/// name and the clients that check it before sending: 1 to 200 Unicode scalars (`TextLength`), at
/// least one scalar that is not white space (Unicode's White_Space property), no control character
/// (general category Cc, U+0000 included). Every part is about scalars, not user-perceived
/// characters, because that is what every language has at hand: a space followed by a combining
/// accent is one `Character` whose first scalar is white space, yet the Python and C clients see a
/// scalar that is not, so the name is not blank. The cases are in docs/vectors/habit-names.json.
public enum HabitName {
    /// Why `name` is refused (the message the server answers INVALID_ARGUMENT with), or nil when
    /// it is a valid habit name.
    public static func problem(_ name: String) -> String? {
        let length = TextLength.of(name)
        guard length > 0, length <= TextLength.maximum else {
            return "a habit name is 1 to \(TextLength.maximum) characters (Unicode scalars; got \(length))"
        }
        guard name.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else {
            return "a habit name needs a character that is not white space"
        }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return "a habit name may not contain control characters"
        }
        return nil
    }
}
