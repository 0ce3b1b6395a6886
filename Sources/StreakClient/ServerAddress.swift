/// Where a streakd listens: a host name or address and a TCP port.
public struct ServerAddress: Hashable, Sendable, CustomStringConvertible {
    /// The default port, 7411.
    public static let defaultPort = 7411
    /// The default address, 127.0.0.1:7411.
    public static let `default` = ServerAddress(host: "127.0.0.1", port: defaultPort)

    /// A host name, an IPv4 address or an IPv6 address (without brackets).
    public var host: String
    /// The TCP port, 1...65535.
    public var port: Int

    /// Creates an address.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `host:port`, `[v6]:port`, `host` (default port) or `:port` (default host).
    /// - Throws: `StreakClientError` (INVALID_ARGUMENT) for an empty text or a bad port; the
    ///   message names the expected form.
    public init(parsing text: String) throws(StreakClientError) {
        let trimmed = text.trimmingSpaces()
        guard !trimmed.isEmpty else {
            throw StreakClientError(.invalidArgument, "empty server address; expected HOST:PORT")
        }
        var host = trimmed
        var portText: Substring?
        if trimmed.hasPrefix("[") {
            guard let close = trimmed.firstIndex(of: "]") else {
                throw StreakClientError(
                    .invalidArgument,
                    "bad server address '\(text)': missing ']'; expected [HOST]:PORT"
                )
            }
            host = String(trimmed[trimmed.index(after: trimmed.startIndex)..<close])
            let rest = trimmed[trimmed.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else {
                    throw StreakClientError(.invalidArgument, "bad server address '\(text)'; expected [HOST]:PORT")
                }
                portText = rest.dropFirst()
            }
        } else if let colon = trimmed.lastIndex(of: ":"), trimmed.firstIndex(of: ":") == colon {
            host = String(trimmed[..<colon])
            portText = trimmed[trimmed.index(after: colon)...]
        }
        var port = ServerAddress.defaultPort
        if let portText {
            guard let value = Int(portText), (1...65535).contains(value) else {
                throw StreakClientError(
                    .invalidArgument,
                    "bad port '\(portText)' in server address '\(text)'; expected HOST:PORT with a port in 1...65535"
                )
            }
            port = value
        }
        self.init(host: host.isEmpty ? ServerAddress.default.host : host, port: port)
    }

    /// `host:port`, with brackets around an IPv6 host.
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}

extension String {
    func trimmingSpaces() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
