import ArgumentParser
import Foundation
import StreakClient
import StreakCore

#if canImport(Glibc)
import Glibc
#endif

/// A failure the CLI reports: a message for standard error and a sysexits-style exit code.
struct CLIFailure: Error {
    /// The exit codes, documented in docs/CLI.md.
    enum ExitStatus: Int32 {
        /// The user answered no to a confirmation; nothing changed.
        case declined = 1
        /// Bad command-line usage (argument-parser's own errors use this too).
        case usage = 64
        /// Bad input: an invalid date, an unknown habit, a name the server refused.
        case badInput = 65
        /// streakd cannot be reached, or it went away.
        case unavailable = 69
        /// The server answered with an internal or unexpected error.
        case server = 70
        /// The output file cannot be created or written (a directory, no permission, no space).
        case cantCreate = 73
        /// Standard output (or a file the command writes) could not be written.
        case ioError = 74
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
    /// - Parameters:
    ///   - error: the client's error.
    ///   - server: the server the CLI called: the hint to start streakd is only for a refused
    ///     connection to this machine (a name that does not resolve needs no local server).
    ///   - token: where the token came from, or why there is none, for a refused token.
    ///   - tlsServerName: `--tls-server-name`, the name a certificate is checked for when given.
    init(
        _ error: StreakClientError,
        server: ServerAddress,
        token: TokenSource = .none,
        tlsServerName: String? = nil
    ) {
        switch (error.code, error.detail) {
        case _ where error.origin == .connect && error.systemErrorCode == ECONNREFUSED && server.isLoopback:
            self.init(
                .unavailable,
                "\(error.message) -- start it with scripts/run (or streakd), or name a running one with --server or STREAK_SERVER"
            )
        case (_, .tlsUnknownAuthority?):
            self.init(.unavailable, "\(error.message) -- pass --ca-file with the certificate of the CA that signed it")
        case (_, .tlsHostnameMismatch?):
            let checked =
                tlsServerName.map { "the name checked is --tls-server-name's '\($0)'" }
                ?? "the name checked is --server's host; --tls-server-name NAME checks another"
            self.init(.unavailable, "\(error.message) -- \(checked)")
        case _ where error.origin == .connect && error.code == .invalidArgument:
            self.init(.usage, error.message)  // a CA file that does not load
        case _ where error.origin == .connect:
            self.init(.unavailable, error.message)
        case (.unavailable, _):
            self.init(.unavailable, error.message)
        case (.invalidArgument, _), (.notFound, _), (.alreadyExists, _), (.failedPrecondition, _):
            self.init(.badInput, error.message)
        case (.unauthenticated, _), (.permissionDenied, _):
            self.init(.unauthenticated, "\(error.message) -- \(token.hint(server: server))")
        case (.deadlineExceeded, _) where error.origin == .server:
            self.init(.timeout, error.message)
        case (.deadlineExceeded, _):
            // Connected, but the answer did not come in time: say from where, and what to change.
            self.init(.timeout, "no answer from streakd at \(server): \(error.message) (--timeout sets it)")
        default:
            self.init(.server, error.description)
        }
    }

    /// Writes the message to standard error and gives the exit code to throw.
    func report() -> ExitCode {
        FileHandle.standardError.write(Data("streak: \(message)\n".utf8))
        return ExitCode(status.rawValue)
    }

    /// Resolves the server and token; a malformed server address is a usage error (64), and so
    /// is a token that would go in clear to another machine (without `--tls` or `--insecure-plaintext`).
    static func resolveConfiguration(
        server: String?,
        token: String?,
        tls: Bool = false,
        caFile: String? = nil,
        tlsServerName: String? = nil,
        insecurePlaintext: Bool = false
    ) throws(CLIFailure) -> ClientConfiguration {
        let environment = ProcessInfo.processInfo.environment
        let serverText = server ?? environment["STREAK_SERVER"].flatMap { $0.isEmpty ? nil : $0 }
        let source = server == nil ? "STREAK_SERVER" : "--server"
        do {
            return try ClientConfiguration.resolve(
                server: server,
                token: token,
                tls: tls,
                caFile: caFile,
                tlsServerName: tlsServerName,
                insecurePlaintext: insecurePlaintext
            )
        } catch {
            switch error.detail {
            case .tokenInClear?:
                let target = (try? ServerAddress(parsing: serverText ?? "")).map { "\($0)" } ?? serverText ?? ""
                throw CLIFailure(
                    .usage,
                    "refusing to send the token in clear to \(target), which is not a loopback address: "
                        + "anyone on the way could read it and act as you. Connect with --tls (or set "
                        + "STREAK_TLS=1), or give --insecure-plaintext to send it unencrypted anyway"
                )
            case .invalidEnvironment(let name)?:
                let value = environment[name] ?? ""
                throw CLIFailure(
                    .usage,
                    "\(name) is '\(value)'; set it to 1, true, yes or on for TLS, "
                        + "or 0, false, no or off (or leave it unset) for plaintext"
                )
            case .tokenFileUnreadable(let path, let reason)?:
                let server = (try? ServerAddress(parsing: serverText ?? "")) ?? .default
                throw CLIFailure(
                    .unauthenticated,
                    TokenSource.fileProblem(path: path, reason: reason).hint(server: server)
                )
            default:
                throw CLIFailure(.usage, "\(source): \(error.message) (e.g. 127.0.0.1:7411)")
            }
        }
    }
}
