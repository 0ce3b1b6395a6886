import Foundation
import StreakPOSIX
import StreakTLS

#if canImport(Glibc)
import Glibc
#endif

/// A blocking TCP socket: connect with a timeout, write everything, read what arrives; with
/// TLS, the session in between (ClientSocket+TLS.swift).
///
/// One thread writes at a time: the one that connects (the preface), then the connection's
/// writer thread (`ConnectionWriter`), so that frames never interleave and a write that blocks
/// on a server that stopped reading holds up no other thread. One thread reads.
final class ClientSocket: Sendable {
    let descriptor: Int32
    /// The TLS session, when the connection uses TLS.
    let tls: ClientTLSChannel?

    private init(descriptor: Int32, tls: ClientTLSChannel? = nil) {
        self.descriptor = descriptor
        self.tls = tls
    }

    deinit {
        Glibc.close(descriptor)
    }

    /// Connects to `address`, trying each resolved address in turn, then runs the TLS handshake
    /// when `tls` is given (within `timeout` again).
    static func connect(
        to address: ServerAddress,
        timeout: Duration,
        tls: (context: TLSContext, serverName: String)? = nil
    ) throws(StreakClientError) -> ClientSocket {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_protocol = Int32(IPPROTO_TCP)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(address.host, String(address.port), &hints, &list)
        guard status == 0, let first = list else {
            let reason = String(cString: gai_strerror(status))
            throw StreakClientError(.unavailable, "cannot resolve \(address.host): \(reason)", origin: .connect)
        }
        defer { freeaddrinfo(list) }
        var lastError: Int32 = ECONNREFUSED
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            entry = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            if fd < 0 {
                lastError = errno
                continue
            }
            let result = connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen, timeout: timeout)
            if result == 0 {
                var one: Int32 = 1
                setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                guard let tls else { return ClientSocket(descriptor: fd) }
                do throws(StreakClientError) {
                    let channel = try ClientTLSChannel.handshake(
                        fd,
                        context: tls.context,
                        serverName: tls.serverName,
                        address: address,
                        timeout: timeout
                    )
                    return ClientSocket(descriptor: fd, tls: channel)
                } catch {
                    Glibc.close(fd)
                    throw error
                }
            }
            lastError = result
            Glibc.close(fd)
        }
        let reason = lastError == ETIMEDOUT ? "timed out" : String(cString: strerror(lastError)).lowercased()
        throw StreakClientError(
            .unavailable,
            "cannot reach streakd at \(address) (\(reason))",
            origin: .connect,
            systemErrorCode: lastError
        )
    }

    /// A non-blocking connect bounded by `timeout`; 0 on success, else an errno value.
    private static func connect(
        _ fd: Int32,
        _ address: UnsafeMutablePointer<sockaddr>,
        _ length: socklen_t,
        timeout: Duration
    ) -> Int32 {
        let flags = fcntl(fd, F_GETFL, 0)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(fd, F_SETFL, flags) }
        if Glibc.connect(fd, address, length) == 0 { return 0 }
        guard errno == EINPROGRESS else { return errno }
        let milliseconds = Int32(
            clamping: timeout.components.seconds * 1000
                + timeout.components.attoseconds / 1_000_000_000_000_000
        )
        var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        let ready = retryingOnInterrupt { poll(&descriptor, 1, max(1, milliseconds)) }
        if ready == 0 { return ETIMEDOUT }
        if ready < 0 { return errno }
        var error: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size)
        return error
    }

    /// Writes all of `bytes`, blocking until they left; false when the connection is broken or
    /// closed (`shutdown()` wakes a write that is blocked). Called by one thread at a time.
    func write(_ bytes: [UInt8]) -> Bool {
        guard let tls else { return Self.sendAll(descriptor, bytes) }
        // Encrypted in the order of the writes: there is only one writer.
        guard let ciphertext = tls.encrypt(bytes) else { return false }
        return Self.sendAll(descriptor, ciphertext)
    }

    /// Sends every byte, blocking; false when the socket failed.
    static func sendAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                retryingOnInterrupt {
                    send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                }
            }
            if written < 0 { return false }
            offset += written
        }
        return true
    }

    /// Reads into `buffer` (plaintext, with TLS); the byte count, 0 at end of stream, -1 on
    /// error (with TLS, `tls.failure` says why when the session failed).
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let tls else { return retryingOnInterrupt { recv(descriptor, buffer.baseAddress, buffer.count, 0) } }
        return tls.read(from: descriptor, into: buffer)
    }

    /// Shuts the socket down so a blocked reader or writer wakes up; the descriptor closes on deinit.
    func shutdown() {
        _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
    }
}
