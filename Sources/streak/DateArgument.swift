import StreakCLI
import StreakCore

/// Date arguments: `YYYY-MM-DD`, `today`, `yesterday`, `-N` or a weekday name (see `DateExpression`).
enum DateArgument {
    /// The value help of every option that takes a date.
    static let valueName = "date"

    /// Parses a date argument; a bad one is bad input (65), with the option named.
    static func parse(_ text: String, option: String) throws(CLIFailure) -> DateExpression {
        do {
            return try DateExpression(parsing: text)
        } catch {
            throw CLIFailure(.badInput, "invalid date for \(option): \(error.message)")
        }
    }

    /// The date meant, relative to `today`.
    static func resolve(_ expression: DateExpression, today: CivilDate, option: String) throws(CLIFailure) -> CivilDate
    {
        do {
            return try expression.resolve(today: today)
        } catch {
            throw CLIFailure(.badInput, "invalid date for \(option): \(error.message)")
        }
    }
}
