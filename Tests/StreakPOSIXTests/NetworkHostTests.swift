import StreakPOSIX
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The address `streakd` listens on for its `--host` (whether that host is loopback is checked
/// with the clients' cases, docs/vectors/server-addresses.json, in StreakClientTests).
@Suite("Network hosts as written")
struct NetworkHostTests {
    @Test(arguments: [
        ("127.0.0.1", "127.0.0.1"), ("0.0.0.0", "0.0.0.0"), ("localhost", "127.0.0.1"), ("LocalHost", "127.0.0.1"),
        ("192.0.2.7", "192.0.2.7"),
    ])
    func ipv4AddressOfAHost(host: String, expected: String) throws {
        let address = try #require(NetworkHost.ipv4Address(host))
        var wanted = in_addr()
        #expect(inet_pton(AF_INET, expected, &wanted) == 1)
        #expect(address.s_addr == wanted.s_addr)
    }

    @Test(arguments: ["::1", "example.org", "127.1", "127.0.0.01", "localhost.", ""])
    func noIPv4AddressForOtherHosts(host: String) {
        #expect(NetworkHost.ipv4Address(host) == nil)
    }
}
