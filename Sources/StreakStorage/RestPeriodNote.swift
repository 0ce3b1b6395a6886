import StreakCore

extension RestPeriodNote {
    /// Refuses a note the rule refuses (`problem`), for a write that did not come through the
    /// server's check.
    /// - Throws: `.invalidArgument` for a note that is too long or holds control characters.
    static func validate(_ note: String) throws(StorageError) {
        if let problem = problem(note) { throw StorageError(.invalidArgument, problem) }
    }
}
