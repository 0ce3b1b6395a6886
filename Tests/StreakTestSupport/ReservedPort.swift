import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A TCP port on 127.0.0.1 that refuses connections for as long as this value lives: a socket
/// bound to it but not listening. Nothing else can bind the port meanwhile, so unlike a port a
/// stopped server used to have, no test running in parallel can start listening there.
public final class ReservedPort: @unchecked Sendable {
    /// The port number.
    public let port: Int
    private let descriptor: Int32

    /// Binds a socket to 127.0.0.1:0 and keeps it (without `listen`).
    /// - Throws: `TestSupportError` when the socket cannot be bound.
    public init() throws {
        (descriptor, port) = try LoopbackSocket.bindEphemeral()
    }

    deinit {
        Glibc.close(descriptor)
    }
}
