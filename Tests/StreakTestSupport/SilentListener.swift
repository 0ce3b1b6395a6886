import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A TCP port on 127.0.0.1 that accepts connections and never says a word: a listening socket
/// that nobody accepts on (the kernel completes the handshake into its backlog). A client's
/// connect succeeds and its preface is never answered, as with a hung peer.
public final class SilentListener: @unchecked Sendable {
    /// The port number.
    public let port: Int
    private let descriptor: Int32

    /// Binds a socket to 127.0.0.1:0 and listens on it.
    /// - Throws: `TestSupportError` when the socket cannot be bound.
    public init() throws {
        (descriptor, port) = try LoopbackSocket.bindEphemeral()
        Glibc.listen(descriptor, 16)
    }

    deinit {
        Glibc.close(descriptor)
    }
}
