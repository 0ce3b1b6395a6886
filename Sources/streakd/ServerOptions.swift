import ArgumentParser
import FoundationEssentials
import Glibc
import StreakPOSIX
import StreakServer
import StreakTLS
import StreakTransport

/// The listening address and the connection limits of `streakd`.
struct ServerOptions: ParsableArguments {
    @Option(help: "The IPv4 address to bind, or localhost (env STREAKD_HOST). Loopback by default.")
    var host: String?

    @Option(help: "The TCP port; 0 binds an ephemeral port (env STREAKD_PORT).")
    var port: Int?

    @Option(help: "The largest frame accepted, in bytes.")
    var maxFrameBytes: Int = TransportConfiguration().maxFrameSize

    @Option(help: "The most requests in flight on one connection.")
    var maxInFlight: Int = TransportConfiguration().maxInFlightPerConnection

    @Option(help: "The most open connections (at the limit the oldest idle one makes room).")
    var maxConnections: Int = TransportConfiguration().maxConnections

    @Option(help: "The most open connections from one client address (0: no limit of its own).")
    var maxConnectionsPerAddress: Int = TransportConfiguration().maxConnectionsPerAddress

    @Option(help: "Seconds a new connection has to send its preface.")
    var handshakeTimeout: Double = 10

    @Option(help: "Seconds an idle connection stays open.")
    var idleTimeout: Double = 300

    @Option(help: "Seconds in-flight requests get to finish on shutdown.")
    var shutdownGrace: Double = 10

    @Option(
        help: """
            Event loops serving connections, each on one thread at a time; the default is half the \
            active processors, at least one
            """
    )
    var eventLoops: Int = TransportConfiguration().eventLoops

    @Option(
        help: """
            Unsent output per connection, in bytes, above which reading it stops and its Watch \
            streams end RESOURCE_EXHAUSTED.
            """
    )
    var maxPendingOutputBytes: Int = TransportConfiguration().maxPendingOutputBytes

    @Option(
        help: """
            Bytes of requests read from one connection and not answered yet, at which reading it \
            stops until they fall to half.
            """
    )
    var maxRequestBytesInFlight: Int = TransportConfiguration().maxRequestBytesInFlight

    @Option(
        name: .customLong("tls-cert"),
        help: ArgumentHelp(
            """
            Serve TLS 1.2+ with this PEM certificate chain, the server's certificate first (env \
            STREAKD_TLS_CERT); needs --tls-key. SIGHUP reads both files again.
            """,
            valueName: "file"
        )
    )
    var tlsCertificate: String?

    @Option(
        name: .customLong("tls-key"),
        help: ArgumentHelp("The PEM private key of --tls-cert (env STREAKD_TLS_KEY).", valueName: "file")
    )
    var tlsKey: String?

    @Flag(
        help: """
            Serve plaintext on an address other than loopback (tokens then travel in clear, and a \
            warning is logged at start); without it streakd refuses to start there unless TLS is on.
            """
    )
    var insecurePlaintext = false

    func validate() throws {
        if let port, !(0...65_535).contains(port) { throw ValidationError("--port must be in 0...65535") }
        guard (64...Int(UInt32.max)).contains(maxFrameBytes) else {
            throw ValidationError("--max-frame-bytes must be in 64...\(UInt32.max)")
        }
        guard maxInFlight >= 1 else { throw ValidationError("--max-in-flight must be at least 1") }
        guard maxConnections >= 1 else { throw ValidationError("--max-connections must be at least 1") }
        guard maxConnectionsPerAddress >= 0 else {
            throw ValidationError("--max-connections-per-address must be 0 (no limit) or more")
        }
        guard (1...256).contains(eventLoops) else { throw ValidationError("--event-loops must be in 1...256") }
        guard maxPendingOutputBytes >= 4096 else {
            throw ValidationError("--max-pending-output-bytes must be at least 4096")
        }
        guard maxRequestBytesInFlight >= 4096 else {
            throw ValidationError("--max-request-bytes-in-flight must be at least 4096")
        }
        try Self.check("--handshake-timeout", handshakeTimeout, atMost: 86_400)
        try Self.check("--idle-timeout", idleTimeout, atMost: 86_400)
        try Self.check("--shutdown-grace", shutdownGrace, atMost: 3_600, zeroAllowed: true)
    }

    /// The certificate and key from the flags, then the environment; nil when neither is given.
    func tlsCredentials(environment: [String: String]) throws -> TLSServerCredentials? {
        let certificate = tlsCertificate ?? environment["STREAKD_TLS_CERT"].flatMap { $0.isEmpty ? nil : $0 }
        let key = tlsKey ?? environment["STREAKD_TLS_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        switch (certificate, key) {
        case (nil, nil):
            return nil
        case (.some, nil):
            throw ValidationError("--tls-cert needs --tls-key (or STREAKD_TLS_KEY): the certificate's private key")
        case (nil, .some):
            throw ValidationError("--tls-key needs --tls-cert (or STREAKD_TLS_CERT): the certificate chain")
        case (let certificate?, let key?):
            do {
                return try TLSServerCredentials(certificateFile: certificate, keyFile: key)
            } catch {
                throw ValidationError("cannot serve TLS: \(error.description)")
            }
        }
    }

    /// Whether the transport can listen on `host`: an IPv4 address, or localhost (`NetworkHost`).
    static func isIPv4(_ host: String) -> Bool { NetworkHost.ipv4Address(host) != nil }

    /// Seconds must be finite and in range: inf, nan and huge values would overflow the conversion.
    private static func check(_ flag: String, _ seconds: Double, atMost limit: Int, zeroAllowed: Bool = false) throws {
        let low = zeroAllowed ? seconds >= 0 : seconds > 0
        guard seconds.isFinite, low, seconds <= Double(limit) else {
            throw ValidationError(
                "\(flag) must be a number of seconds \(zeroAllowed ? "from 0" : "over 0") up to \(limit), got \(seconds)"
            )
        }
    }

    /// The transport configuration from the flags, then the environment, then the defaults.
    func transportConfiguration(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> TransportConfiguration {
        var configuration = TransportConfiguration()
        configuration.host = host ?? environment["STREAKD_HOST"].flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1"
        if let port {
            configuration.port = port
        } else if let text = environment["STREAKD_PORT"], !text.isEmpty {
            guard let value = Int(text), (0...65_535).contains(value) else {
                throw ValidationError("STREAKD_PORT must be a port number, not '\(text)'")
            }
            configuration.port = value
        }
        configuration.maxFrameSize = maxFrameBytes
        configuration.maxInFlightPerConnection = maxInFlight
        configuration.maxConnections = maxConnections
        configuration.maxConnectionsPerAddress = maxConnectionsPerAddress
        configuration.eventLoops = eventLoops
        configuration.maxPendingOutputBytes = maxPendingOutputBytes
        configuration.maxRequestBytesInFlight = maxRequestBytesInFlight
        configuration.handshakeTimeout = .milliseconds(Int(handshakeTimeout * 1000))
        configuration.idleTimeout = .milliseconds(Int(idleTimeout * 1000))
        configuration.shutdownGracePeriod = .milliseconds(Int(shutdownGrace * 1000))
        // Checked before anything opens the store: a server that cannot bind must not create one.
        guard Self.isIPv4(configuration.host) else {
            // A name other than localhost is not looked up: which address it binds would depend on
            // the resolver at start.
            let why =
                configuration.host.contains(":")
                ? "streakd does not listen on IPv6 yet" : "a host name other than localhost is not looked up"
            throw ValidationError(
                """
                --host must be an IPv4 address (or localhost), not '\(configuration.host)': \(why) (use \
                127.0.0.1 for this machine, 0.0.0.0 for every interface)
                """
            )
        }
        configuration.tls = try tlsCredentials(environment: environment)
        if configuration.tls == nil && !insecurePlaintext && !NetworkHost.isLoopback(configuration.host) {
            throw ValidationError(
                """
                refusing to serve plaintext on \(configuration.host), which is not a loopback address: bearer \
                tokens would travel in clear. Give --tls-cert and --tls-key (or STREAKD_TLS_CERT and \
                STREAKD_TLS_KEY), or --insecure-plaintext to serve plaintext anyway
                """
            )
        }
        return configuration
    }
}
