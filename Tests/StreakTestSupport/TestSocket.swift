import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Blocking socket calls for test connections.
public enum TestSocket {
    /// Connects a blocking TCP socket to 127.0.0.1:`port` with a receive and send timeout.
    /// - Parameter receiveBuffer: SO_RCVBUF in bytes, set before connecting (the window depends on it).
    public static func connect(port: Int, timeout: Duration, receiveBuffer: Int? = nil) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestSupportError("socket failed: errno \(errno)") }
        if let receiveBuffer { setBuffer(SO_RCVBUF, of: descriptor, bytes: receiveBuffer) }
        var seconds = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &seconds, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw TestSupportError("connect to port \(port) failed: errno \(code)")
        }
        return descriptor
    }

    /// Fixes a socket's SO_RCVBUF or SO_SNDBUF (the kernel stops autotuning it, and doubles the
    /// value for its own bookkeeping). A receive buffer must be set before connecting: the window
    /// depends on it.
    public static func setBuffer(_ option: Int32, of descriptor: Int32, bytes: Int) {
        var size = Int32(bytes)
        setsockopt(descriptor, SOL_SOCKET, option, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Writes every byte (MSG_NOSIGNAL: a closed peer is an error, not a signal).
    public static func sendAll(_ descriptor: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                send(descriptor, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EINTR { continue }
                throw TestSupportError("send failed: errno \(errno)")
            }
            offset += sent
        }
    }

    /// Reads what is there (blocking up to the receive timeout); 0 at end of stream.
    public static func receive(_ descriptor: Int32, _ buffer: inout [UInt8]) throws -> Int {
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress!, $0.count, 0) }
            if count >= 0 { return count }
            if errno == EINTR { continue }
            if errno == ECONNRESET { return 0 }
            if errno == EAGAIN || errno == EWOULDBLOCK { throw TestSupportError("receive timed out") }
            throw TestSupportError("recv failed: errno \(errno)")
        }
    }
}
