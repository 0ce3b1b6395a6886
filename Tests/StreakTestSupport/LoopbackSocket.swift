import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// TCP sockets on 127.0.0.1 for test servers and reserved ports.
public enum LoopbackSocket {
    /// A TCP socket bound to 127.0.0.1 on a port the system picks, not yet listening.
    /// - Returns: the descriptor (the caller closes it) and the port.
    /// - Throws: `TestSupportError` when the socket cannot be created, bound or named.
    public static func bindEphemeral() throws -> (descriptor: Int32, port: Int) {
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
            throw TestSupportError("cannot bind a loopback socket: errno \(code)")
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }
}
