import Foundation
import StreakTLS
import Synchronization

/// TLS for a client's connections: which CAs to trust and which name the server's certificate
/// must carry. TLS 1.2 or later; the client offers ALPN "streakd/1".
public struct ClientTLSConfiguration: Hashable, Sendable {
    /// Debian's system store of trusted CAs, the default.
    public static let systemCAFile = "/etc/ssl/certs/ca-certificates.crt"

    /// A PEM file of the CA certificates to trust; nil trusts the system store.
    public var caFile: String?
    /// The name the certificate must be for (and the SNI sent), when not the server address's
    /// host: a DNS name, or an IP address checked against the certificate's IP addresses.
    public var serverName: String?

    /// Creates a configuration.
    public init(caFile: String? = nil, serverName: String? = nil) {
        self.caFile = caFile
        self.serverName = serverName
    }

    /// The CA file to load: `caFile`, else the system store when it exists (else nil: OpenSSL's
    /// default paths).
    var effectiveCAFile: String? {
        caFile ?? (FileManager.default.fileExists(atPath: Self.systemCAFile) ? Self.systemCAFile : nil)
    }

    /// The client context for this configuration. - Throws: `StreakClientError` (INVALID_ARGUMENT)
    /// when the CA file does not load.
    func makeContext() throws(StreakClientError) -> TLSContext {
        do {
            return try TLSContext.client(caFile: effectiveCAFile)
        } catch {
            throw StreakClientError(.invalidArgument, error.description, origin: .connect)
        }
    }
}

/// One client's TLS context, made once: loading a CA store takes milliseconds, and a client
/// that reconnects (a watch, a GOAWAY) must not pay it every time.
final class ClientTLSContextCache: Sendable {
    private let cached = Mutex<(ClientTLSConfiguration, TLSContext)?>(nil)

    func context(for configuration: ClientTLSConfiguration) throws(StreakClientError) -> TLSContext {
        if let (key, context) = cached.withLock({ $0 }), key == configuration { return context }
        let context = try configuration.makeContext()
        cached.withLock { $0 = (configuration, context) }
        return context
    }
}
