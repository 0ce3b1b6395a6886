import ArgumentParser
import Foundation
import StreakServer

/// The listening address and the connection limits of `streakd`.
struct ServerOptions: ParsableArguments {
    @Option(help: "The address to bind (env STREAKD_HOST). Loopback by default.")
    var host: String?

    @Option(help: "The TCP port; 0 binds an ephemeral port (env STREAKD_PORT).")
    var port: Int?

    @Option(help: "The largest frame accepted, in bytes.")
    var maxFrameBytes: Int = TransportConfiguration().maxFrameSize

    @Option(help: "The most requests in flight on one connection.")
    var maxInFlight: Int = TransportConfiguration().maxInFlightPerConnection

    @Option(help: "The most open connections.")
    var maxConnections: Int = TransportConfiguration().maxConnections

    @Option(help: "Seconds a new connection has to send its preface.")
    var handshakeTimeout: Double = 10

    @Option(help: "Seconds an idle connection stays open.")
    var idleTimeout: Double = 300

    @Option(help: "Seconds in-flight requests get to finish on shutdown.")
    var shutdownGrace: Double = 10

    func validate() throws {
        if let port, !(0...65_535).contains(port) { throw ValidationError("--port must be in 0...65535") }
        guard maxFrameBytes >= 64 else { throw ValidationError("--max-frame-bytes must be at least 64") }
        guard maxInFlight >= 1 else { throw ValidationError("--max-in-flight must be at least 1") }
        guard maxConnections >= 1 else { throw ValidationError("--max-connections must be at least 1") }
        guard handshakeTimeout > 0, idleTimeout > 0, shutdownGrace >= 0 else {
            throw ValidationError("timeouts must be positive")
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
        configuration.handshakeTimeout = .milliseconds(Int(handshakeTimeout * 1000))
        configuration.idleTimeout = .milliseconds(Int(idleTimeout * 1000))
        configuration.shutdownGracePeriod = .milliseconds(Int(shutdownGrace * 1000))
        return configuration
    }
}
