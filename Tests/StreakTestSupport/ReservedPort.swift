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
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestSupportError("socket failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard bound == 0, named == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw TestSupportError("cannot reserve a port: errno \(code)")
        }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        Glibc.close(descriptor)
    }
}
