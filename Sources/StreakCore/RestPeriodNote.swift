/// The rest-period note rule (docs/PROTOCOL.md section 2.2), one definition for the server that
/// refuses a request, the store that refuses a write and an import: 0 to 200 Unicode scalars
/// (`TextLength`, as habit names count), no control character (general category Cc).
public enum RestPeriodNote {
    /// Why `note` is refused (the message INVALID_ARGUMENT carries), or nil when it is a valid note.
    public static func problem(_ note: String) -> String? {
        let length = TextLength.of(note)
        guard length <= RestPeriodRecord.maximumNoteLength else {
            return "a rest period's note is at most \(RestPeriodRecord.maximumNoteLength) characters "
                + "(Unicode scalars; got \(length))"
        }
        guard !note.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return "a rest period's note may not contain control characters"
        }
        return nil
    }
}
