import Foundation
import StreakFraming
import StreakPOSIX
import StreakTLS
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A client connection's TLS session, shared by the reader thread and the writer thread.
///
/// The session runs over memory buffers under a lock that is never held while the socket
/// blocks: the reader receives ciphertext unlocked, then decrypts under the lock; the writer
/// encrypts under the lock (taking any ciphertext the session queued since, such as a TLS 1.3
/// key update's answer, first) and sends with no lock held.
final class ClientTLSChannel: Sendable {
    private let session: Mutex<TLSSession>
    private let failureText = Mutex<String?>(nil)

    private init(session: TLSSession) {
        self.session = Mutex(session)
    }

    /// Why the session failed, once it did.
    var failure: String? { failureText.withLock { $0 } }

    /// The protocol agreed on, e.g. "TLSv1.3".
    var protocolVersion: String { session.withLock { $0.protocolVersion } }

    /// Plaintext to ciphertext (with whatever ciphertext was waiting before it); nil when the
    /// session failed.
    func encrypt(_ bytes: [UInt8]) -> [UInt8]? {
        session.withLock { session in
            guard bytes.withUnsafeBytes({ session.write($0) }) else {
                let reason = session.failure.description
                failureText.withLock { $0 = $0 ?? reason }
                return nil
            }
            return session.takeOutput()
        }
    }

    /// Reads plaintext, receiving ciphertext from `descriptor` (blocking) while the session needs
    /// more. - Returns: the byte count, 0 at the end (close_notify or EOF), -1 on error.
    func read(from descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let result = session.withLock { session -> TLSSession.ReadResult in
                let result = session.read(into: buffer)
                if result == .failed {
                    let reason = session.failure.description
                    failureText.withLock { $0 = $0 ?? reason }
                }
                return result
            }
            switch result {
            case .bytes(let count): return count
            case .closed: return 0
            case .failed: return -1
            case .wantRead: break
            }
            // The buffer is free until plaintext arrives: ciphertext goes through it to the session.
            let count = retryingOnInterrupt { recv(descriptor, buffer.baseAddress, buffer.count, 0) }
            if count <= 0 { return count }
            let fed = session.withLock { $0.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) }
            if !fed { return -1 }
        }
    }

    /// The detail of a certificate that failed verification.
    static func detail(_ failure: TLSError.VerifyFailure) -> StreakClientError.Detail {
        switch failure {
        case .unknownAuthority: .tlsUnknownAuthority
        case .hostnameMismatch: .tlsHostnameMismatch
        case .expired, .notYetValid: .tlsCertificateOutOfDate
        case .other: .tlsCertificateRejected
        }
    }

    /// Runs the handshake on the connected, blocking socket `fd` within `timeout`.
    /// - Throws: `StreakClientError` (UNAVAILABLE, origin `.connect`): the certificate's
    ///   verification failure ("certificate verify failed: hostname mismatch ...", with its
    ///   `detail`), the server's
    ///   alert, a server that answered in plaintext, a timeout.
    static func handshake(
        _ fd: Int32,
        context: TLSContext,
        serverName: String,
        address: ServerAddress,
        timeout: Duration
    ) throws(StreakClientError) -> ClientTLSChannel {
        let session: TLSSession
        do {
            session = try TLSSession(client: context, serverName: serverName)
        } catch {
            throw StreakClientError(.invalidArgument, error.description, origin: .connect)
        }
        let deadline = ContinuousClock.now + timeout
        var firstBytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        func failure(_ reason: String, code: Int32? = nil, detail: StreakClientError.Detail? = nil) -> StreakClientError
        {
            StreakClientError(
                .unavailable,
                "cannot connect to streakd at \(address) over TLS: \(reason)",
                origin: .connect,
                systemErrorCode: code,
                detail: detail
            )
        }
        while true {
            let state = session.handshake()
            let output = session.takeOutput()
            // After a failure the output is the alert that tells the server why; best effort.
            if !output.isEmpty && !ClientSocket.sendAll(fd, output) && state != .failed {
                throw failure("the connection closed during the TLS handshake", code: errno)
            }
            switch state {
            case .done:
                return ClientTLSChannel(session: session)
            case .failed:
                if firstBytes.starts(with: Preface.bytes.prefix(7)) {
                    throw failure(
                        "the server answered in plaintext: it does not serve TLS on this port (connect without TLS)"
                    )
                }
                let error = session.failure
                throw failure(error.description, detail: error.verifyFailure.map(Self.detail))
            case .wantRead:
                break
            }
            let left = deadline - ContinuousClock.now
            let milliseconds = Int32(
                clamping: max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
            )
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = retryingOnInterrupt { poll(&descriptor, 1, left <= .zero ? 0 : milliseconds) }
            if ready == 0 { throw failure("the TLS handshake timed out", code: ETIMEDOUT) }
            if ready < 0 { throw failure(String(cString: strerror(errno)).lowercased(), code: errno) }
            let count = buffer.withUnsafeMutableBytes { bytes in
                retryingOnInterrupt { recv(fd, bytes.baseAddress, bytes.count, 0) }
            }
            if count == 0 {
                throw failure(
                    firstBytes.isEmpty
                        ? "the server closed the connection during the TLS handshake (is it serving TLS?)"
                        : "the server closed the connection during the TLS handshake"
                )
            }
            if count < 0 { throw failure(String(cString: strerror(errno)).lowercased(), code: errno) }
            if firstBytes.count < 8 { firstBytes += buffer[0..<min(count, 8 - firstBytes.count)] }
            let fed = buffer.withUnsafeBytes { session.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            if !fed { throw failure("out of memory") }
        }
    }
}
