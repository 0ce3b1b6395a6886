internal import CTLS

/// A TLS failure: a certificate or key that cannot be loaded, a handshake that failed (with the
/// peer's alert or the verification's reason), or a session that broke.
public struct TLSError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Why the server's certificate was refused, for a failed verification.
    public enum VerifyFailure: Hashable, Sendable {
        /// The certificate is not for the name (or address) the client asked for.
        case hostnameMismatch
        /// The certificate's validity ended.
        case expired
        /// The certificate's validity has not begun.
        case notYetValid
        /// No trusted CA signed the certificate (or it signed itself).
        case unknownAuthority
        /// Another reason, with OpenSSL's X509_V_ERR_* value.
        case other(Int)
    }

    /// What went wrong, for people: e.g. "certificate verify failed: certificate has expired".
    public var description: String
    /// Set when the peer's certificate failed verification.
    public var verifyFailure: VerifyFailure?

    /// Creates an error.
    public init(_ description: String, verifyFailure: VerifyFailure? = nil) {
        self.description = description
        self.verifyFailure = verifyFailure
    }

    /// The error of a session whose last call failed: for a client whose verification failed,
    /// "certificate verify failed: " and the reason in words (hostname mismatch, expired,
    /// unknown CA); else OpenSSL's reason (e.g. "tlsv1 alert unknown ca" when the peer refused us).
    static func failure(of session: OpaquePointer, serverName: String?) -> TLSError {
        let reason = String(cString: streak_tls_error(session))
        let result = Int(streak_tls_verify_result(session))
        guard reason.hasPrefix("certificate verify failed"), result != 0 else {
            return TLSError(reason.isEmpty ? "TLS error" : reason)
        }
        let text = String(cString: streak_tls_verify_text(result))
        let name = serverName.map { "'\($0)'" } ?? "the server's name"
        switch result {
        case STREAK_TLS_VERIFY_HOSTNAME_MISMATCH, STREAK_TLS_VERIFY_IP_ADDRESS_MISMATCH:
            return TLSError(
                "certificate verify failed: hostname mismatch (the server's certificate is not for \(name))",
                verifyFailure: .hostnameMismatch
            )
        case STREAK_TLS_VERIFY_CERT_HAS_EXPIRED:
            return TLSError("certificate verify failed: certificate has expired", verifyFailure: .expired)
        case STREAK_TLS_VERIFY_CERT_NOT_YET_VALID:
            return TLSError("certificate verify failed: certificate is not yet valid", verifyFailure: .notYetValid)
        case STREAK_TLS_VERIFY_UNABLE_TO_GET_ISSUER_CERT,
            STREAK_TLS_VERIFY_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
            STREAK_TLS_VERIFY_UNABLE_TO_VERIFY_LEAF_SIGNATURE,
            STREAK_TLS_VERIFY_SELF_SIGNED_CERT_IN_CHAIN,
            STREAK_TLS_VERIFY_DEPTH_ZERO_SELF_SIGNED_CERT:
            return TLSError(
                "certificate verify failed: unknown CA (\(text.lowercased())): no trusted CA signed the server's certificate",
                verifyFailure: .unknownAuthority
            )
        default:
            return TLSError("certificate verify failed: \(text)", verifyFailure: .other(result))
        }
    }
}
