import FoundationEssentials
import StreakFraming
import StreakPOSIX

#if canImport(Glibc)
import Glibc
#endif

/// The few socket calls the transport needs, over Glibc.
enum Socket {
    /// A non-blocking IPv4 listening socket on `host:port`. - Returns: the descriptor and the bound port.
    static func listen(host: String, port: Int) throws -> (Int32, Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TransportError(description: "socket failed: \(errorText())") }
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(clamping: port).bigEndian)
        guard let ipv4 = NetworkHost.ipv4Address(host) else {
            Glibc.close(descriptor)
            throw TransportError(description: "cannot listen on \(host): not an IPv4 address")
        }
        address.sin_addr = ipv4
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, Glibc.listen(descriptor, 4096) == 0 else {
            let reason = errorText()
            Glibc.close(descriptor)
            throw TransportError(description: "cannot listen on \(host):\(port): \(reason)")
        }
        setNonBlocking(descriptor)
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return (descriptor, Int(UInt16(bigEndian: actual.sin_port)))
    }

    /// Non-blocking, close-on-exec, no Nagle delay.
    static func configureAccepted(_ descriptor: Int32) {
        setNonBlocking(descriptor)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Best effort: our preface and a GOAWAY, then close.
    static func refuse(_ descriptor: Int32, status: Status) {
        var bytes = Preface.bytes
        FrameEncoder.encode(.goAway(lastRequestID: 0, status: status), into: &bytes)
        _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        shutdown(descriptor, Int32(SHUT_WR))
        var scratch = [UInt8](repeating: 0, count: 4096)
        _ = scratch.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        Glibc.close(descriptor)
    }

    /// The numeric host of an accepted peer (`127.0.0.1`, `::1`), the key of the per-address limit.
    static func numericHost(_ address: sockaddr_storage) -> String {
        var address = address
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let length = socklen_t(
            Int32(address.ss_family) == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size
        )
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo($0, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST)
            }
        }
        guard result == 0 else { return "unknown" }
        return String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The port of an accepted peer (0 for an address family without ports).
    static func port(_ address: sockaddr_storage) -> UInt16 {
        var address = address
        return withUnsafePointer(to: &address) { pointer in
            switch Int32(pointer.pointee.ss_family) {
            case AF_INET:
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
            case AF_INET6:
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    UInt16(bigEndian: $0.pointee.sin6_port)
                }
            default: 0
            }
        }
    }

    private static func setNonBlocking(_ descriptor: Int32) {
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
