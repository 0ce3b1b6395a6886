#if canImport(Glibc)
import Glibc
#endif

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

    /// True when the host is this machine as written: `localhost` (in any case), an IPv4 address in
    /// 127.0.0.0/8 in dotted-quad form, or the IPv6 address `::1` (in any of its spellings).
    /// Host names other than `localhost`, and other spellings such as `127.1` or
    /// `::ffff:127.0.0.1`, count as other machines: nothing is resolved to decide.
    public var isLoopback: Bool {
        if host.lowercased() == "localhost" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, host, &v6) == 1 else { return false }
        return withUnsafeBytes(of: &v6) { bytes in bytes.dropLast().allSatisfy { $0 == 0 } && bytes.last == 1 }
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
