#if canImport(Glibc)
import Glibc
#endif

/// Host text as written in `--host`, `--server` and `STREAK_SERVER`: which hosts are this machine,
/// for `streakd` (which serves plaintext only there) and the client (which sends a token in clear
/// and reads the local token file only for them), and the IPv4 address `streakd` listens on.
/// Nothing is resolved: a name is judged by how it is written, so one rule holds everywhere (the
/// cases are in docs/vectors/server-addresses.json, which the Python and C clients follow too).
public enum NetworkHost {
    /// True for `localhost` in any case, a dotted-quad IPv4 address in 127.0.0.0/8 and the IPv6
    /// address `::1` in any of its spellings. Other names, and other spellings such as `127.1`,
    /// `127.0.0.01` or `::ffff:127.0.0.1`, count as other machines.
    public static func isLoopback(_ host: String) -> Bool {
        if let address = ipv4Address(host) { return UInt32(bigEndian: address.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, host, &v6) == 1 else { return false }
        return withUnsafeBytes(of: &v6) { bytes in bytes.dropLast().allSatisfy { $0 == 0 } && bytes.last == 1 }
    }

    /// The IPv4 address `host` is: a dotted quad, or `localhost` in any case as 127.0.0.1; nil
    /// for anything else (other names are not resolved).
    public static func ipv4Address(_ host: String) -> in_addr? {
        var address = in_addr()
        let text = host.lowercased() == "localhost" ? "127.0.0.1" : host
        return inet_pton(AF_INET, text, &address) == 1 ? address : nil
    }
}
