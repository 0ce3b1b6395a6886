internal import CTLS

#if canImport(Glibc)
import Glibc
#endif

/// One TLS session over memory buffers: ciphertext from the peer goes in with `feed`, plaintext
/// comes out of `read`; plaintext goes in with `write`, ciphertext for the peer comes out with
/// `takeOutput` or `sendOutput(to:)`. Nothing here blocks, so an event loop can drive thousands.
///
/// Not thread-safe: use a session from one thread (or under one lock) at a time.
public final class TLSSession: @unchecked Sendable {
    /// What a read gave.
    public enum ReadResult: Equatable, Sendable {
        /// This many plaintext bytes.
        case bytes(Int)
        /// More ciphertext is needed first.
        case wantRead
        /// The peer closed the session.
        case closed
        /// The session failed; see `failure`.
        case failed
    }

    /// How the handshake stands.
    public enum HandshakeResult: Equatable, Sendable {
        case done
        case wantRead
        case failed
    }

    private let pointer: OpaquePointer
    /// Keeps the context alive as long as the session (OpenSSL counts its reference too).
    private let context: TLSContext
    private let serverName: String?

    /// A server session for one accepted connection; nil when out of memory.
    public init?(server context: TLSContext) {
        guard let pointer = streak_tls_server_session(context.pointer) else { return nil }
        self.pointer = pointer
        self.context = context
        self.serverName = nil
    }

    /// A client session that checks the certificate is for `serverName` (a host name, sent as
    /// SNI too, or an IP address). - Throws: `TLSError` when the name cannot be set.
    public init(client context: TLSContext, serverName: String?) throws(TLSError) {
        var error = [CChar](repeating: 0, count: 512)
        guard let pointer = streak_tls_client_session(context.pointer, serverName, &error, error.count) else {
            throw TLSError(TLSContext.text(error))
        }
        self.pointer = pointer
        self.context = context
        self.serverName = serverName
    }

    deinit {
        streak_tls_session_free(pointer)
    }

    /// Hands over ciphertext that arrived from the peer. - Returns: false when out of memory.
    @discardableResult
    public func feed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return true }
        return streak_tls_feed(pointer, base, bytes.count) == 1
    }

    /// Advances the handshake; ciphertext may be waiting afterwards in any case.
    public func handshake() -> HandshakeResult {
        let result = streak_tls_handshake(pointer)
        if result == 1 { return .done }
        return Int(result) == STREAK_TLS_WANT_READ ? .wantRead : .failed
    }

    /// Whether the handshake completed.
    public var isHandshakeComplete: Bool { streak_tls_handshake_done(pointer) == 1 }

    /// Decrypts into `buffer` (driving the handshake first while it is not complete).
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return .bytes(0) }
        let result = streak_tls_read(pointer, base, buffer.count)
        if result > 0 { return .bytes(Int(result)) }
        switch Int(result) {
        case STREAK_TLS_WANT_READ: return .wantRead
        case STREAK_TLS_CLOSED: return .closed
        default: return .failed
        }
    }

    /// Whether decrypted bytes wait inside the session (call `read` again before waiting for the socket).
    public var hasBufferedInput: Bool { streak_tls_has_buffered_input(pointer) == 1 }

    /// Encrypts all of `bytes` into the outgoing ciphertext. - Returns: false when the session failed.
    public func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard var base = bytes.baseAddress else { return true }
        var left = bytes.count
        while left > 0 {
            let written = streak_tls_write(pointer, base, left)
            guard written > 0 else { return false }
            base += Int(written)
            left -= Int(written)
        }
        return true
    }

    /// Queues a close_notify alert (once), for a peer that wants to know the end was meant.
    public func closeNotify() {
        streak_tls_close_notify(pointer)
    }

    /// Outgoing ciphertext waiting to be sent, in bytes.
    public var pendingOutput: Int { streak_tls_pending_output(pointer) }

    /// Moves all outgoing ciphertext out.
    public func takeOutput() -> [UInt8] {
        let count = pendingOutput
        guard count > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = streak_tls_take_output(pointer, buffer.baseAddress, count)
        }
    }

    /// Sends outgoing ciphertext to a socket without blocking.
    /// - Returns: the bytes still waiting (0 when all went), or nil when the socket failed (errno set).
    public func sendOutput(to descriptor: Int32) -> Int? {
        let left = streak_tls_send_output(pointer, descriptor)
        return left < 0 ? nil : Int(left)
    }

    /// Why the last handshake, read or write failed.
    public var failure: TLSError { TLSError.failure(of: pointer, serverName: serverName) }

    /// "TLSv1.3", once the handshake completed.
    public var protocolVersion: String { String(cString: streak_tls_protocol(pointer)) }

    /// The cipher suite, once the handshake completed.
    public var cipher: String { String(cString: streak_tls_cipher(pointer)) }

    /// The ALPN protocol agreed on ("streakd/1"), or nil when the client offered none.
    public var applicationProtocol: String? {
        var text = [CChar](repeating: 0, count: 64)
        let length = streak_tls_alpn(pointer, &text, text.count)
        return length == 0 ? nil : TLSContext.text(text)
    }
}
