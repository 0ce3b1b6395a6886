import Synchronization

/// A server's certificate and key files and the context made from them. `reload()` reads the
/// files again (on SIGHUP): connections accepted afterwards use the new context, connections
/// already open keep theirs, and a pair that does not load leaves the old context in place.
public final class TLSServerCredentials: Sendable {
    /// The PEM certificate chain, the server's certificate first.
    public let certificateFile: String
    /// The PEM private key.
    public let keyFile: String
    private let current: Mutex<TLSContext>

    /// Loads the pair. - Throws: `TLSError` naming the file that does not load and why.
    public init(certificateFile: String, keyFile: String) throws(TLSError) {
        self.certificateFile = certificateFile
        self.keyFile = keyFile
        current = Mutex(try TLSContext.server(certificateFile: certificateFile, keyFile: keyFile))
    }

    /// The context for a new connection.
    public var context: TLSContext { current.withLock { $0 } }

    /// Reads both files again and, when they load, makes them the context of new connections.
    /// - Returns: the new context.
    /// - Throws: `TLSError` when they do not load; the previous context stays.
    @discardableResult
    public func reload() throws(TLSError) -> TLSContext {
        let fresh = try TLSContext.server(certificateFile: certificateFile, keyFile: keyFile)
        current.withLock { $0 = fresh }
        return fresh
    }
}
