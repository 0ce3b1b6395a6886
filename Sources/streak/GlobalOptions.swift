import ArgumentParser
import Foundation
import StreakCLI
import StreakClient
import StreakCore

#if canImport(Glibc)
import Glibc
#endif

/// The options every command takes: where the server is, who we are, how to print.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp("streakd's address (default: $STREAK_SERVER or 127.0.0.1:7411).", valueName: "host:port")
    )
    var server: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            """
            The bearer token (default: $STREAK_TOKEN, else for a server on this machine the local data \
            dir's token file).
            """,
            valueName: "token"
        )
    )
    var token: String?

    @Flag(name: .long, help: "Connect with TLS, verifying streakd's certificate (default: $STREAK_TLS=1).")
    var tls = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            """
            The PEM file of the CA certificates to trust with TLS; implies --tls (default: $STREAK_CA_FILE, \
            else the system store /etc/ssl/certs/ca-certificates.crt).
            """,
            valueName: "file"
        )
    )
    var caFile: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The name streakd's certificate must be for, when not --server's host; implies --tls.",
            valueName: "name"
        )
    )
    var tlsServerName: String?

    @Flag(
        name: .long,
        help: """
            Send the token without TLS to a server that is not on this machine (refused otherwise: \
            anyone on the way could read it).
            """
    )
    var insecurePlaintext = false

    @Flag(name: .long, help: "Print JSON instead of text (shapes in docs/CLI.md).")
    var json = false

    @Option(
        name: .long,
        parsing: .unconditional,
        help: ArgumentHelp(
            "The day that counts as today (default: today in your time zone): YYYY-MM-DD, yesterday, -N, monday.",
            valueName: "date"
        )
    )
    var asOf: String?

    @Option(
        name: .long,
        help: ArgumentHelp("Colour: auto (on a terminal, unless NO_COLOR is set), always or never.", valueName: "when")
    )
    var color: TerminalStyle.ColorChoice = .auto

    @Option(
        name: .long,
        help: ArgumentHelp("Seconds to wait for streakd to connect and to answer each request.", valueName: "seconds")
    )
    var timeout: Double = 5

    @Flag(name: [.short, .long], help: "No notes on standard error (e.g. the time zone notice).")
    var quiet = false

    /// Runs a command body with a connected client, turning every failure into a message and an exit code.
    /// - Parameter usesToday: whether the command's answer depends on today; such a command says
    ///   once, on standard error, when the server counts days in another time zone than this machine.
    func run(usesToday: Bool = true, _ body: (CommandContext) async throws -> Void) async throws {
        var address = ServerAddress.default
        var tokenSource = TokenSource.none
        do {
            var configuration = try resolveConfiguration()
            address = configuration.server
            tokenSource = configuration.tokenSource
            configuration.connectTimeout = .milliseconds(Int(timeout * 1000))
            configuration.defaultDeadline = .milliseconds(Int(timeout * 1000))
            let client = StreakClient(configuration: configuration)
            defer { client.close() }
            let context = CommandContext(
                client: client,
                json: json,
                asOf: try asOf.map { text throws(CLIFailure) in try DateArgument.parse(text, option: "--as-of") },
                style: TerminalStyle.resolve(
                    color,
                    isTerminal: isatty(STDOUT_FILENO) == 1,
                    environment: ProcessInfo.processInfo.environment
                ),
                quiet: quiet
            )
            try await context.resolveAsOf()
            if usesToday && asOf == nil && !quiet {
                try await context.noteTimeZoneDifference()
            }
            try await body(context)
        } catch let failure as CLIFailure {
            throw failure.report()
        } catch let error as StreakClientError {
            throw CLIFailure(error, server: address, token: tokenSource, tlsServerName: tlsServerName).report()
        } catch let error as CoreError {
            throw CLIFailure(.badInput, error.message).report()
        }
    }

    /// The server and token; `--token ''` is an error rather than a silent fall-back to the token
    /// file. No token for a server on another machine (the local token file is only for this
    /// one's) is exit 77 before connecting.
    func resolveConfiguration() throws(CLIFailure) -> ClientConfiguration {
        if let token, token.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw CLIFailure(.usage, "--token is empty (leave it out to use $STREAK_TOKEN or the token file)")
        }
        guard timeout > 0, timeout <= 3600 else {
            throw CLIFailure(.usage, "--timeout \(timeout) is outside 0 < seconds <= 3600")
        }
        let configuration = try CLIFailure.resolveConfiguration(
            server: server,
            token: token,
            tls: tls,
            caFile: caFile,
            tlsServerName: tlsServerName,
            insecurePlaintext: insecurePlaintext
        )
        if configuration.token == nil, !configuration.server.isLoopback {
            throw CLIFailure(.unauthenticated, configuration.tokenSource.hint(server: configuration.server))
        }
        return configuration
    }
}

extension TerminalStyle.ColorChoice: ExpressibleByArgument {}
