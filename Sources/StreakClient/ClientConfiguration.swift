import Foundation

/// How a client reaches streakd: the server address, the token and the default deadline.
public struct ClientConfiguration: Sendable {
    /// The server to call.
    public var server: ServerAddress
    /// The bearer token sent on every method but Ping; nil sends none.
    public var token: String?
    /// The deadline of calls that give none; nil means no deadline.
    public var defaultDeadline: Duration?
    /// How long connecting may take (the TCP connection, then as long again for the TLS handshake).
    public var connectTimeout: Duration
    /// TLS, or nil for plaintext (the token then travels in clear: see `sendsTokenInClear`).
    public var tls: ClientTLSConfiguration?
    /// Where `token` came from or, when there is none, why: what to name when the server
    /// refuses the token, or asks for one.
    public var tokenSource: TokenSource

    /// Creates a configuration.
    public init(
        server: ServerAddress = .default,
        token: String? = nil,
        defaultDeadline: Duration? = .seconds(30),
        connectTimeout: Duration = .seconds(10),
        tls: ClientTLSConfiguration? = nil
    ) {
        self.server = server
        self.token = token
        self.defaultDeadline = defaultDeadline
        self.connectTimeout = connectTimeout
        self.tls = tls
        self.tokenSource = token == nil ? .none : .argument
    }

    /// The configuration from explicit values, then the environment, then the defaults.
    ///
    /// Server: `server`, else `STREAK_SERVER`, else 127.0.0.1:7411. Token: `token`, else
    /// `STREAK_TOKEN`, else, only when the server is on this machine (`ServerAddress.isLoopback`),
    /// the contents of `<default data dir>/token` (the file a local streakd writes on its first
    /// start), else none: the local user's token is never sent to another machine. A token file
    /// that does not exist or is empty gives no token; one that exists but cannot be read is an
    /// error. `tokenSource` says which it was. TLS: on with
    /// `tls`, a `caFile` or a `tlsServerName`, or `STREAK_TLS` set to 1 (true, yes, on); its CA
    /// file is `caFile`, else `STREAK_CA_FILE`, else the system store.
    ///
    /// A token is not sent in clear to another machine: without TLS, a token for a server that
    /// is not on a loopback address is refused unless `insecurePlaintext` (streakd itself serves
    /// plaintext beyond loopback only with `--insecure-plaintext`). A configuration made with
    /// `init` is not checked; `sendsTokenInClear` tells.
    /// - Throws: `StreakClientError` (INVALID_ARGUMENT) for a bad server address
    ///   (`detail` `.invalidServerAddress`) or `STREAK_TLS` value (`.invalidEnvironment`);
    ///   (UNAUTHENTICATED, `.tokenFileUnreadable`) for a token file that exists but cannot be
    ///   read (no permission, a directory, not UTF-8 text); (FAILED_PRECONDITION,
    ///   `.tokenInClear`) for a token that would go in clear to another machine.
    public static func resolve(
        server: String? = nil,
        token: String? = nil,
        tls: Bool = false,
        caFile: String? = nil,
        tlsServerName: String? = nil,
        insecurePlaintext: Bool = false,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(StreakClientError) -> ClientConfiguration {
        var configuration = ClientConfiguration()
        var useTLS = tls || caFile != nil || tlsServerName != nil
        if let text = environment["STREAK_TLS"]?.trimmingSpaces().lowercased(), !text.isEmpty {
            switch text {
            case "1", "true", "yes", "on": useTLS = true
            case "0", "false", "no", "off": break
            default:
                throw StreakClientError(
                    .invalidArgument,
                    "STREAK_TLS must be 1 or 0, not '\(text)'",
                    detail: .invalidEnvironment(name: "STREAK_TLS")
                )
            }
        }
        if useTLS {
            configuration.tls = ClientTLSConfiguration(
                caFile: caFile ?? environment["STREAK_CA_FILE"].flatMap { $0.isEmpty ? nil : $0 },
                serverName: tlsServerName
            )
        }
        if let text = server ?? environment["STREAK_SERVER"].flatMap({ $0.isEmpty ? nil : $0 }) {
            do {
                configuration.server = try ServerAddress(parsing: text)
            } catch {
                var error = error
                error.detail = .invalidServerAddress
                throw error
            }
        }
        // White space around a pasted token (`--token "$(cat f) "`, a newline) is never part of it.
        if let token = token?.trimmingCharacters(in: .whitespacesAndNewlines), !token.isEmpty {
            configuration.token = token
            configuration.tokenSource = .argument
        } else if let token = environment["STREAK_TOKEN"]?.trimmingCharacters(in: .whitespacesAndNewlines),
            !token.isEmpty
        {
            configuration.token = token
            configuration.tokenSource = .environment
        } else if configuration.server.isLoopback {
            let path = defaultDataDirectory(environment: environment).appendingPathComponent("token").path
            switch TokenFile.read(path) {
            case .token(let token):
                configuration.token = token
                configuration.tokenSource = .file(path: path)
            case .absent(let reason):
                configuration.tokenSource = .fileProblem(path: path, reason: reason)
            case .unreadable(let reason):
                throw StreakClientError(
                    .unauthenticated,
                    "the token file \(path) \(reason): give a token (or set STREAK_TOKEN), or run as the user "
                        + "the file belongs to (a local streakd writes <data dir>/token, readable by its user only)",
                    detail: .tokenFileUnreadable(path: path, reason: reason)
                )
            }
        } else {
            configuration.tokenSource = .notLoopback
        }
        if configuration.sendsTokenInClear && !insecurePlaintext {
            throw StreakClientError(
                .failedPrecondition,
                "refusing to send the token in clear to \(configuration.server), which is not a loopback "
                    + "address: connect with TLS (STREAK_TLS=1)",
                detail: .tokenInClear
            )
        }
        return configuration
    }

    /// True when a token would travel unencrypted to another machine: a token, no TLS, and a
    /// server that is not on a loopback address.
    public var sendsTokenInClear: Bool {
        token != nil && tls == nil && !server.isLoopback
    }

    /// streakd's default data directory: `$STREAKD_DATA_DIR`, else `$XDG_DATA_HOME/streakd`,
    /// else `$HOME/.local/share/streakd`.
    public static func defaultDataDirectory(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        if let directory = environment["STREAKD_DATA_DIR"], !directory.isEmpty {
            return URL(fileURLWithPath: directory, isDirectory: true)
        }
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("streakd", isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".local/share/streakd", isDirectory: true)
    }
}
