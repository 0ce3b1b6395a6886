import ArgumentParser
import Foundation
import StreakClient
import StreakCore

/// A failure the CLI reports: a message for standard error and a sysexits-style exit code.
struct CLIFailure: Error {
    /// The exit codes, documented in docs/CLI.md.
    enum ExitStatus: Int32 {
        /// Bad command-line usage (argument-parser's own errors use this too).
        case usage = 64
        /// Bad input: an invalid date, an unknown habit, a name the server refused.
        case badInput = 65
        /// streakd cannot be reached, or it went away.
        case unavailable = 69
        /// The server answered with an internal or unexpected error.
        case server = 70
        /// The deadline passed before the answer came.
        case timeout = 75
        /// Missing, unknown or revoked token.
        case unauthenticated = 77
    }

    var status: ExitStatus
    var message: String

    init(_ status: ExitStatus, _ message: String) {
        self.status = status
        self.message = message
    }

    /// Maps a client error to an exit status and a message that says what to do.
    init(_ error: StreakClientError) {
        switch error.code {
        case _ where error.origin == .connect:
            self.init(.unavailable, "\(error.message) -- start it with scripts/run (or streakd)")
        case .unavailable:
            self.init(.unavailable, error.message)
        case .invalidArgument, .notFound, .alreadyExists, .failedPrecondition:
            self.init(.badInput, error.message)
        case .unauthenticated, .permissionDenied:
            self.init(
                .unauthenticated,
                "\(error.message) -- pass --token or set STREAK_TOKEN (streakd user add NAME prints one)"
            )
        case .deadlineExceeded:
            self.init(.timeout, error.message)
        default:
            self.init(.server, error.description)
        }
    }

    /// Writes the message to standard error and gives the exit code to throw.
    func report() -> ExitCode {
        FileHandle.standardError.write(Data("streak: \(message)\n".utf8))
        return ExitCode(status.rawValue)
    }

    /// Parses `YYYY-MM-DD`; a bad date is bad input (65).
    static func parseDate(_ text: String, option: String) throws(CLIFailure) -> CivilDate {
        do {
            return try CivilDate(parsing: text)
        } catch {
            throw CLIFailure(.badInput, "invalid date for \(option): \(error.message)")
        }
    }
}
