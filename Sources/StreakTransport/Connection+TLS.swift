import FoundationEssentials
import Logging
import StreakFraming
import StreakPOSIX
import StreakTLS

#if canImport(Glibc)
import Glibc
#endif

/// The TLS state of one connection: its session and what the connection learnt about the peer.
/// Touched only on the connection's loop.
final class ConnectionTLS {
    let session: TLSSession
    /// Whether any ciphertext arrived yet (the first byte tells a TLS client from a plaintext one).
    var receivedAny = false
    /// Whether the handshake's completion was logged.
    var reportedHandshake = false
    /// Whether plaintext ever came through (OpenSSL's own flag turns false again once a session fails).
    var established = false

    init?(context: TLSContext) {
        guard let session = TLSSession(server: context) else { return nil }
        self.session = session
    }
}

/// TLS under the connection's reads and writes: the socket carries ciphertext, the decoder and
/// the responder see plaintext. Without TLS each hook is the plain system call.
///
/// The session runs over memory buffers on the loop's thread: ciphertext is received into the
/// free part of the loop's read buffer, handed to OpenSSL and decrypted back into it; plaintext
/// is encrypted a chunk at a time and only once the previous chunk's ciphertext left, so at
/// most one chunk of ciphertext waits per connection (counted as unsent output, like plaintext).
extension Connection {
    /// Plaintext per encryption step (four full TLS records).
    static let tlsWriteChunk = 64 * 1024

    /// Like recv(2): plaintext bytes (over 0), 0 at the end of the stream, or -1 with errno set
    /// (EAGAIN when nothing more is there). With TLS it fills `buffer` as far as the socket
    /// allows, so that nothing decrypted stays inside the session when it returns short.
    func receive(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let tls else { return retryingOnInterrupt { recv(descriptor, buffer.baseAddress, buffer.count, 0) } }
        var filled = 0
        var drained = false  // a short recv emptied the socket: no second recv only to hear EAGAIN
        while filled < buffer.count {
            let free = UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])
            switch tls.session.read(into: free) {
            case .bytes(let count):
                filled += count
                tls.established = true
                continue
            case .closed:
                return filled  // close_notify: the end of the stream, as a FIN would be
            case .failed:
                tlsFailed(tls)
                errno = ECONNRESET
                return -1
            case .wantRead:
                if drained {
                    if filled > 0 { return filled }
                    errno = EAGAIN
                    return -1
                }
            }
            let count = retryingOnInterrupt { recv(descriptor, free.baseAddress, free.count, 0) }
            if count > 0 {
                let ciphertext = UnsafeRawBufferPointer(rebasing: free[0..<count])
                if !tls.receivedAny {
                    tls.receivedAny = true
                    // Every TLS connection starts with a handshake record (22).
                    if ciphertext[0] != 22 {
                        refusePlaintext(firstBytes: Array(ciphertext.prefix(8)))
                        errno = EAGAIN
                        return -1
                    }
                }
                guard tls.session.feed(ciphertext) else {
                    logger.warning("out of memory for a TLS connection's input; closing it")
                    errno = ENOMEM
                    return -1
                }
                drained = count < free.count
                continue
            }
            if count == 0 { return filled }
            let saved = errno
            if filled > 0 { return filled }  // the error, if any, is reported again by the next read
            errno = saved
            return -1
        }
        return filled
    }

    /// Like send(2) with MSG_DONTWAIT: how many of `count` plaintext bytes were taken, or -1
    /// with errno set (EAGAIN while earlier ciphertext still waits for the socket).
    func transmit(_ base: UnsafeRawPointer, _ count: Int) -> Int {
        guard let tls else {
            return retryingOnInterrupt { send(descriptor, base, count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        }
        guard tls.session.isHandshakeComplete else {
            // Shutdown or a timeout before the handshake ended: nothing can be said inside TLS yet.
            errno = ENOTCONN
            return -1
        }
        guard let left = tls.session.sendOutput(to: descriptor) else { return -1 }
        if left > 0 {
            errno = EAGAIN
            return -1
        }
        let chunk = min(count, Self.tlsWriteChunk)
        guard tls.session.write(UnsafeRawBufferPointer(start: base, count: chunk)) else {
            tlsFailed(tls)
            errno = EPROTO
            return -1
        }
        guard tls.session.sendOutput(to: descriptor) != nil else { return -1 }
        return chunk
    }

    /// Ciphertext encrypted but not yet sent (0 without TLS).
    var pendingTLSOutput: Int { tls?.session.pendingOutput ?? 0 }

    /// Sends ciphertext that waits (the handshake's messages, the rest of a chunk) without
    /// blocking. - Returns: false when the socket failed.
    func sendTLSOutput() -> Bool {
        guard let tls, tls.session.pendingOutput > 0 else { return true }
        if tls.session.sendOutput(to: descriptor) == nil { return false }
        if !tls.reportedHandshake && tls.session.isHandshakeComplete {
            tls.reportedHandshake = true
            logger.debug(
                "TLS handshake completed",
                metadata: [
                    "protocol": "\(tls.session.protocolVersion)", "cipher": "\(tls.session.cipher)",
                    "alpn": "\(tls.session.applicationProtocol ?? "none")",
                ]
            )
        }
        return true
    }

    /// Before the write side shuts down: a close_notify, so that a client's TLS library sees a
    /// deliberate end.
    func sendTLSCloseNotify() {
        guard let tls, tls.session.isHandshakeComplete else { return }
        tls.session.closeNotify()
        _ = tls.session.sendOutput(to: descriptor)
    }

    /// For the handshake timeout: a TLS connection whose handshake has not completed cannot be
    /// sent a GOAWAY, so it is closed with a log line. - Returns: true when it was closed here.
    func closeIfTLSHandshakeUnfinished() -> Bool {
        guard let tls, !tls.session.isHandshakeComplete else { return false }
        logger.notice(
            "closing a connection whose TLS handshake did not complete within the handshake timeout",
            metadata: ["peer": "\(peerAddress)"]
        )
        close()
        return true
    }

    /// A failed handshake or session: the reason in the log, the alert (which tells the client
    /// why) sent when the socket takes it; the caller closes.
    private func tlsFailed(_ tls: ConnectionTLS) {
        let reason = tls.session.failure.description
        _ = tls.session.sendOutput(to: descriptor)
        if tls.established {
            logger.notice(
                "a TLS connection failed; closing it",
                metadata: ["reason": "\(reason)", "peer": "\(peerAddress)"]
            )
        } else {
            let hint =
                !reason.contains("alert")
                ? ""
                : reason.contains("certificate") || reason.contains("unknown ca")
                    ? " (the client refused the server's certificate)"
                    : " (the client ended the handshake with an alert)"
            logger.notice(
                "TLS handshake failed\(hint); closing the connection",
                metadata: ["reason": "\(reason)", "peer": "\(peerAddress)"]
            )
        }
    }

    /// A client that speaks plaintext to the TLS port: a log line that says so, and in plaintext
    /// our preface and a GOAWAY that tells the client to use TLS; then the connection lingers
    /// (so that the client reads the GOAWAY rather than a reset) and closes.
    private func refusePlaintext(firstBytes: [UInt8]) {
        let looksLikeStreakd = firstBytes.starts(with: Preface.bytes.prefix(firstBytes.count))
        let shown = firstBytes.map { byte in
            (0x20..<0x7F).contains(byte)
                ? String(UnicodeScalar(byte)) : "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)
        }.joined()
        logger.notice(
            looksLikeStreakd
                ? "a plaintext client connected to the TLS port (it sent the streakd preface without TLS); closing it"
                : "a client that does not speak TLS connected to the TLS port; closing it",
            metadata: ["first-bytes": "\(shown)", "peer": "\(peerAddress)"]
        )
        var bytes = Preface.bytes
        let status = Status(.invalidArgument, "this streakd port requires TLS: connect with TLS (streak --tls)")
        FrameEncoder.encode(.goAway(lastRequestID: 0, status: status), into: &bytes)
        _ = bytes.withUnsafeBytes {
            send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        }
        _ = machine.protocolError()
        _ = machine.outputFlushed(finished: true)
        startLingering()
    }

    /// The client's address and port, for log lines: as accepted, since a socket that failed or
    /// was reset no longer knows its peer (getpeername(2) then fails).
    var peerAddress: String { "\(peer):\(peerPort)" }
}
