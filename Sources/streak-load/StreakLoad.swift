import ArgumentParser
import Foundation
import StreakFraming
import StreakTLS

/// The load generator behind scripts/bench: drives a running streakd over loopback.
@main
struct StreakLoad: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "streak-load",
        abstract: "Drive a running streakd with many connections and report throughput and latency.",
        discussion: """
            Every result is printed as one line starting with RESULT, which scripts/bench turns into a table.
            Requests name the fixed day 2026-06-30 as as_of, so that every run computes the same answers.
            """,
        subcommands: [
            Setup.self, Run.self, Idle.self, Populate.self, Generate.self, Scale.self, Hostile.self, Summary.self,
        ]
    )
}

/// Where the server is and who the benchmark's users are.
struct TargetOptions: ParsableArguments {
    @Option(help: "The server, HOST:PORT.")
    var server = "127.0.0.1:7411"

    @Option(help: "A file with one bearer token per line; one benchmark user per token.")
    var tokensFile: String

    @Option(
        help: "The server's process id, to report its CPU time per request (and the user-mode part) and its memory."
    )
    var serverPid: Int32?

    @Option(help: "The server's allocation count file (scripts/malloc-count.c), to report its allocations per request.")
    var allocCountFile: String?

    @Flag(help: "Connect with TLS (the system's CAs unless --ca-file).")
    var tls = false

    @Option(help: "The PEM CA certificates that signed the server's certificate; implies --tls.")
    var caFile: String?

    @Option(help: "The name the server's certificate must be for (default: the server's host).")
    var tlsServerName: String?

    func endpoint() throws -> ServerEndpoint { try ServerEndpoint(parsing: server) }

    /// The TLS context, made once for every connection; nil for plaintext.
    func tlsSettings() throws -> LoadTLS? {
        guard tls || caFile != nil || tlsServerName != nil else { return nil }
        let endpoint = try endpoint()
        return LoadTLS(context: try TLSContext.client(caFile: caFile), serverName: tlsServerName ?? endpoint.host)
    }

    func tokens() throws -> [String] {
        let text = try String(contentsOfFile: tokensFile, encoding: .utf8)
        let tokens = text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty }
        guard !tokens.isEmpty else { throw ValidationError("\(tokensFile) holds no tokens") }
        return tokens
    }

    func users(create: Bool) throws -> [BenchUser] {
        let connection = try LoadConnection(address: try endpoint(), tls: try tlsSettings())
        return try tokens().map { token throws(LoadError) in
            try BenchUser.prepare(token: token, connection: connection, create: create)
        }
    }

    var stats: ServerProcessStats? {
        serverPid.map { ServerProcessStats(pid: $0, allocationCountFile: allocCountFile) }
    }
}

extension StreakLoad {
    /// Creates the data set: five habits and a year of completions per user.
    struct Setup: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create five habits and a year of completions for every user (skipped when present)."
        )

        @OptionGroup var target: TargetOptions

        func run() throws {
            let started = Date()
            let users = try target.users(create: true)
            let habits = users.reduce(0) { $0 + $1.habitIDs.count }
            print(
                "data set: \(users.count) users, \(habits) habits, as of \(BenchUser.asOf)"
                    + String(format: " (%.1f s)", Date().timeIntervalSince(started))
            )
        }
    }

    /// Runs one scenario and prints its RESULT line.
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run one scenario: \(ScenarioName.names(separator: ", "))."
        )

        @OptionGroup var target: TargetOptions

        @Argument(help: ArgumentHelp(stringLiteral: ScenarioName.names(separator: " | ")))
        var scenario: String

        @Option(help: "Concurrent connections.")
        var connections = 50

        @Option(help: "Requests in flight per connection.")
        var depth = 1

        @Option(help: "Seconds of warm-up before measuring.")
        var warmup = 3.0

        @Option(help: "Seconds measured.")
        var duration = 10.0

        @Option(help: "Requests per second over all connections (paced); default: as fast as answers come.")
        var rate: Double?

        @Option(help: "Shifts the (habit, day) pairs the write scenarios use, e.g. for a second run on the same users.")
        var keyOffset = 0

        @Option(help: "The name in the RESULT line (default: the scenario).")
        var name: String?

        func validate() throws {
            guard ScenarioName(rawValue: scenario) != nil else {
                throw ValidationError(
                    "unknown scenario \(scenario); choose one of \(ScenarioName.names(separator: ", "))"
                )
            }
            guard connections > 0, depth > 0, duration > 0, warmup >= 0 else {
                throw ValidationError("connections, depth and duration must be positive")
            }
            if let rate, !(rate > 0) { throw ValidationError("--rate must be positive") }
            guard keyOffset >= 0 else { throw ValidationError("--key-offset must not be negative") }
        }

        func run() throws {
            FileLimits.raise()
            let runner = LoadRunner(
                endpoint: try target.endpoint(),
                users: try target.users(create: false),
                connections: connections,
                depth: depth,
                warmup: warmup,
                duration: duration,
                stats: target.stats,
                tls: try target.tlsSettings(),
                rate: rate,
                keyOffset: keyOffset
            )
            var result = try runner.run(ScenarioName(rawValue: scenario)!)
            if let name { result.name = name }
            print(result.resultLine)
            if let error = result.firstError {
                FileHandle.standardError.write(Data("\(scenario): first error: \(error)\n".utf8))
            }
        }
    }

    /// Opens idle connections and reports the server's resident memory.
    struct Idle: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Hold many idle connections open and report the server's resident memory."
        )

        @OptionGroup var target: TargetOptions

        @Option(help: "Idle connections to open.")
        var connections = 1000

        func run() throws {
            FileLimits.raise()
            let endpoint = try target.endpoint()
            let tls = try target.tlsSettings()
            var open: [LoadConnection] = []
            for _ in 0..<connections {
                let connection = try LoadConnection(address: endpoint, tls: tls)
                try connection.send(FrameEncoder.encode(.ping(42)))
                open.append(connection)
            }
            for connection in open {
                while true {
                    if case .pong = try connection.nextFrame() { break }
                }
            }
            Thread.sleep(forTimeInterval: 1)
            let rss = target.stats?.memoryMiB("VmRSS").map { String(format: "%.1f", $0) } ?? "-"
            // Still open? A server at its connection limit closes the oldest idle connection to
            // make room for a new one, after it answered that one's ping: ask each again.
            let closed = open.filter { !Self.answersPing($0) }.count
            print("RESULT name=idle connections=\(open.count - closed) rss_mib=\(rss) errors=\(closed)")
            if closed > 0 {
                FileHandle.standardError.write(
                    Data(
                        "idle: \(closed) of \(open.count) connections were closed by the server (its --max-connections?)\n"
                            .utf8
                    )
                )
            }
        }

        /// Whether `connection` answers a ping with its pong (not a GOAWAY, not its end).
        private static func answersPing(_ connection: LoadConnection) -> Bool {
            do {
                try connection.send(FrameEncoder.encode(.ping(43)))
                while true {
                    switch try connection.nextFrame() {
                    case .pong(43): return true
                    case .goAway: return false
                    default: continue
                    }
                }
            } catch {
                return false
            }
        }
    }
}

/// The process's open-file limit, raised to its hard limit for many connections.
enum FileLimits {
    static func raise() {
        var limit = rlimit()
        guard getrlimit(RLIMIT_NOFILE_VALUE, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(RLIMIT_NOFILE_VALUE, &limit)
    }

    #if canImport(Glibc)
    private static let RLIMIT_NOFILE_VALUE = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #endif
}
