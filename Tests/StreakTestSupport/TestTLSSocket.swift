import Foundation
import StreakTLS

#if canImport(Glibc)
import Glibc
#endif

/// A test connection's TLS session over its blocking socket: the handshake on connect, then
/// plaintext in and out. Not thread-safe, like `TestConnection`.
public final class TestTLSSocket: @unchecked Sendable {
    /// The session, for its protocol and ALPN.
    public let session: TLSSession
    private let descriptor: Int32

    /// Runs the handshake on the connected socket `descriptor`, trusting `caFile` and checking
    /// the certificate is for `serverName`.
    /// - Throws: `TestSupportError` with the session's reason when the handshake fails.
    public init(descriptor: Int32, caFile: String, serverName: String = "localhost") throws {
        self.descriptor = descriptor
        session = try TLSSession(client: try TLSContext.client(caFile: caFile), serverName: serverName)
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let state = session.handshake()
            try TestSocket.sendAll(descriptor, session.takeOutput())
            switch state {
            case .done: return
            case .failed: throw TestSupportError("TLS handshake failed: \(session.failure)")
            case .wantRead: break
            }
            let count = try TestSocket.receive(descriptor, &buffer)
            if count == 0 { throw TestSupportError("the server closed the connection during the TLS handshake") }
            buffer.withUnsafeBytes { _ = session.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
    }

    /// Encrypts and sends every byte.
    public func send(_ bytes: [UInt8]) throws {
        guard bytes.withUnsafeBytes({ session.write($0) }) else {
            throw TestSupportError("TLS write failed: \(session.failure)")
        }
        try TestSocket.sendAll(descriptor, session.takeOutput())
    }

    /// Sends a close_notify alert.
    public func closeNotify() throws {
        session.closeNotify()
        try TestSocket.sendAll(descriptor, session.takeOutput())
    }

    /// Plaintext into `buffer`, blocking up to the socket's receive timeout; 0 at the end (or
    /// when the server reset the connection).
    public func receive(_ buffer: inout [UInt8]) throws -> Int {
        while true {
            let result = buffer.withUnsafeMutableBytes { session.read(into: $0) }
            switch result {
            case .bytes(let count): return count
            case .closed: return 0
            case .failed: throw TestSupportError("TLS read failed: \(session.failure)")
            case .wantRead: break
            }
            var ciphertext = [UInt8](repeating: 0, count: 64 * 1024)
            let count = try TestSocket.receive(descriptor, &ciphertext)
            if count == 0 { return 0 }
            ciphertext.withUnsafeBytes { _ = session.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
    }
}
