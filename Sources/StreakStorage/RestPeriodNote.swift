import StreakCore

/// The note of a rest period: at most 200 characters, no control characters.
enum RestPeriodNote {
    /// - Throws: `.invalidArgument` for a note that is too long or holds control characters.
    static func validate(_ note: String) throws(StorageError) {
        guard TextLength.of(note) <= RestPeriodRecord.maximumNoteLength else {
            throw StorageError(
                .invalidArgument,
                "a rest period's note is at most 200 characters (Unicode scalars; got \(TextLength.of(note)))"
            )
        }
        guard !note.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw StorageError(.invalidArgument, "a rest period's note may not contain control characters")
        }
    }
}
