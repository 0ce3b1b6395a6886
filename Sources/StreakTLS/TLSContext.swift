internal import CTLS

/// An OpenSSL context: a server's certificate and key, or a client's trusted CAs. TLS 1.2 and
/// later, ALPN "streakd/1". Sessions made from it keep it alive (OpenSSL counts references), so
/// a server may drop a context for a reloaded one while its connections go on.
/// `@unchecked Sendable`: every property is a constant, and the OpenSSL context is only read once
/// made (sessions take references to it with OpenSSL's own atomic counting).
public final class TLSContext: @unchecked Sendable {
    let pointer: OpaquePointer
    /// For a server context: the certificate's subject, issuer and end of validity.
    public let summary: String
    /// For a server context: whether the certificate's validity already ended.
    public let isExpired: Bool

    private init(pointer: OpaquePointer) {
        self.pointer = pointer
        var text = [CChar](repeating: 0, count: 512)
        let state = streak_tls_context_describe(pointer, &text, text.count)
        summary = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        isExpired = state == 1
    }

    deinit {
        streak_tls_context_free(pointer)
    }

    /// A server context from a PEM certificate chain (the server's certificate first) and a PEM
    /// private key. - Throws: `TLSError` naming the file and OpenSSL's reason, or a key that
    /// does not belong to the certificate.
    public static func server(certificateFile: String, keyFile: String) throws(TLSError) -> TLSContext {
        var error = [CChar](repeating: 0, count: 512)
        guard let pointer = streak_tls_server_context(certificateFile, keyFile, &error, error.count) else {
            throw TLSError(text(error))
        }
        return TLSContext(pointer: pointer)
    }

    /// A client context that trusts the PEM certificates in `caFile`, or OpenSSL's default store
    /// (Debian's /etc/ssl/certs) when nil. - Throws: `TLSError` when the file cannot be read.
    public static func client(caFile: String?) throws(TLSError) -> TLSContext {
        var error = [CChar](repeating: 0, count: 512)
        guard let pointer = streak_tls_client_context(caFile, &error, error.count) else {
            throw TLSError(text(error))
        }
        return TLSContext(pointer: pointer)
    }

    static func text(_ characters: [CChar]) -> String {
        String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
