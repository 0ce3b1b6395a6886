import Foundation

/// Checks the form of `--server` and `STREAK_SERVER` before the client parses it: `HOST:PORT`,
/// `[IPV6]:PORT`, `HOST` or `:PORT`. A URL, a path or an unbracketed IPv6 address would otherwise
/// reach the resolver as a host name and fail as "cannot resolve".
enum ServerArgument {
    /// Why `text` is not a server address, or nil when its form is one (the port is checked later).
    static func problem(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let scheme = trimmed.range(of: "://") {
            return "'\(text)' has a scheme (\(trimmed[..<scheme.lowerBound])://); expected HOST:PORT without one"
        }
        if trimmed.contains("/") {
            return "'\(text)' has a path; expected HOST:PORT"
        }
        if !trimmed.hasPrefix("["), trimmed.filter({ $0 == ":" }).count > 1 {
            return "'\(text)' has more than one ':'; expected HOST:PORT (an IPv6 address goes in brackets: [::1]:7411)"
        }
        return nil
    }
}
