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
            "The bearer token (default: $STREAK_TOKEN or the local data dir's token file).",
            valueName: "token"
        )
    )
    var token: String?

    @Flag(name: .long, help: "Print JSON instead of text (shapes in docs/CLI.md).")
    var json = false

    @Option(
        name: .long,
        help: ArgumentHelp("The day that counts as today (default: today in your time zone).", valueName: "YYYY-MM-DD")
    )
    var asOf: String?

    @Option(
        name: .long,
        help: ArgumentHelp("Colour: auto (on a terminal, unless NO_COLOR is set), always or never.", valueName: "when")
    )
    var color: TerminalStyle.ColorChoice = .auto

    /// Runs a command body with a connected client, turning every failure into a message and an exit code.
    func run(_ body: (CommandContext) async throws -> Void) async throws {
        var address = ServerAddress.default
        do {
            let configuration = try CLIFailure.resolveConfiguration(server: server, token: token)
            address = configuration.server
            let client = StreakClient(configuration: configuration)
            defer { client.close() }
            let context = CommandContext(
                client: client,
                json: json,
                asOf: try asOf.map { try CLIFailure.parseDate($0, option: "--as-of") },
                style: TerminalStyle.resolve(
                    color,
                    isTerminal: isatty(STDOUT_FILENO) == 1,
                    environment: ProcessInfo.processInfo.environment
                )
            )
            try await body(context)
        } catch let failure as CLIFailure {
            throw failure.report()
        } catch let error as StreakClientError {
            throw CLIFailure(error, server: address).report()
        } catch let error as CoreError {
            throw CLIFailure(.badInput, error.message).report()
        }
    }
}

extension TerminalStyle.ColorChoice: ExpressibleByArgument {}

/// What a command body works with.
struct CommandContext {
    let client: StreakClient
    let json: Bool
    let asOf: CivilDate?
    let style: TerminalStyle

    /// Prints the JSON value (on one line when `compact`) or the text, as `--json` asks.
    func emit(json value: @autoclosure () -> JSONValue, text: @autoclosure () -> String, compact: Bool = false) {
        if json {
            print(value().serialized(pretty: !compact))
        } else {
            print(text(), terminator: "")
        }
        fflush(nil)
    }
}
