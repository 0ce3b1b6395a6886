import StreakPOSIX

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

    /// Parses `HOST:PORT`, `HOST` (port 7411), `:PORT` (host 127.0.0.1), `[IPV6]:PORT` or `[IPV6]`,
    /// the forms of `--server` and `STREAK_SERVER` (docs/CLI.md). The port is ASCII digits, 1...65535.
    /// Refused, so that nothing reaches the resolver as a strange host name: white space, a scheme
    /// (`http://`), a path, more than one `:` outside brackets (an IPv6 address goes in brackets),
    /// brackets that do not hold an IPv6 address. The Python and C clients parse by the same rule
    /// (the cases are in docs/vectors/server-addresses.json).
    /// - Throws: `StreakClientError` (INVALID_ARGUMENT) whose message names the expected form.
    public init(parsing text: String) throws(StreakClientError) {
        func refuse(_ problem: String) -> StreakClientError {
            StreakClientError(.invalidArgument, problem)
        }
        guard !text.isEmpty else { throw refuse("empty server address; expected HOST:PORT") }
        if text.unicodeScalars.contains(where: \.properties.isWhitespace) {
            throw refuse("'\(text)' has white space; expected HOST:PORT without any")
        }
        if let scheme = text.range(of: "://") {
            throw refuse("'\(text)' has a scheme (\(text[..<scheme.lowerBound])://); expected HOST:PORT without one")
        }
        if text.contains("/") { throw refuse("'\(text)' has a path; expected HOST:PORT") }
        var host: Substring
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else {
                throw refuse("bad server address '\(text)': missing ']'; expected [HOST]:PORT")
            }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { throw refuse("bad server address '\(text)'; expected [HOST]:PORT") }
                portText = rest.dropFirst()
            }
            guard host.contains(":"), !host.contains("[") else {
                throw refuse("bad server address '\(text)': brackets hold an IPv6 address, as in [::1]:7411")
            }
        } else {
            let colons = text.filter { $0 == ":" }.count
            guard colons <= 1 else {
                throw refuse(
                    "'\(text)' has more than one ':'; expected HOST:PORT (an IPv6 address goes in brackets: [::1]:7411)"
                )
            }
            if let colon = text.firstIndex(of: ":") {
                host = text[..<colon]
                portText = text[text.index(after: colon)...]
            } else {
                host = text[...]
            }
        }
        if host.contains("[") || host.contains("]") || portText?.contains("]") == true {
            throw refuse("bad server address '\(text)': a stray bracket; expected HOST:PORT or [IPV6]:PORT")
        }
        var port = ServerAddress.defaultPort
        if let portText {
            guard let value = Self.port(portText) else {
                throw refuse(
                    "bad port '\(portText)' in server address '\(text)'; expected HOST:PORT with a port in 1...65535"
                )
            }
            port = value
        }
        self.init(host: host.isEmpty ? ServerAddress.default.host : String(host), port: port)
    }

    /// A port of ASCII digits (`Int(_:)` would take a sign), 1...65535.
    private static func port(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        var value = 0
        for digit in text.utf8 {
            value = value * 10 + Int(digit - 0x30)
            if value > 65535 { return nil }
        }
        return value >= 1 ? value : nil
    }

    /// True when the host is this machine as written (`NetworkHost.isLoopback`, the rule `streakd`
    /// applies to its own address): `localhost` (in any case), an IPv4 address in 127.0.0.0/8 in
    /// dotted-quad form, or the IPv6 address `::1` (in any of its spellings). Host names other than
    /// `localhost`, and other spellings such as `127.1` or `::ffff:127.0.0.1`, count as other
    /// machines: nothing is resolved to decide.
    public var isLoopback: Bool { NetworkHost.isLoopback(host) }

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
