import Foundation
import StreakClient
import Testing

@Suite("Addresses and configuration (no server)")
struct ConfigurationTests {
    @Test(arguments: [
        ("127.0.0.1:7411", "127.0.0.1", 7411), ("localhost:80", "localhost", 80), ("example.org", "example.org", 7411),
        (":9000", "127.0.0.1", 9000), ("[::1]:7411", "::1", 7411), ("[::1]", "::1", 7411), ("::1", "::1", 7411),
    ])
    func parsesAddresses(text: String, host: String, port: Int) throws {
        let address = try ServerAddress(parsing: text)
        #expect(address.host == host)
        #expect(address.port == port)
    }

    @Test(arguments: ["", "host:0", "host:65536", "host:http", "[::1"])
    func rejectsBadAddresses(text: String) {
        #expect(throws: StreakClientError.self) { try ServerAddress(parsing: text) }
    }

    @Test("TLS: --tls, a CA file or a server name turn it on; STREAK_TLS too, with STREAK_CA_FILE")
    func tlsResolution() throws {
        let empty: [String: String] = ["HOME": "/nonexistent"]
        #expect(try ClientConfiguration.resolve(environment: empty).tls == nil)
        #expect(try ClientConfiguration.resolve(tls: true, environment: empty).tls == ClientTLSConfiguration())
        #expect(try ClientConfiguration.resolve(caFile: "/ca.pem", environment: empty).tls?.caFile == "/ca.pem")
        #expect(
            try ClientConfiguration.resolve(tlsServerName: "streakd.example", environment: empty).tls?.serverName
                == "streakd.example"
        )
        for on in ["1", "true", "YES", "on"] {
            let environment = empty.merging(["STREAK_TLS": on, "STREAK_CA_FILE": "/env.pem"]) { $1 }
            #expect(try ClientConfiguration.resolve(environment: environment).tls?.caFile == "/env.pem")
            #expect(
                try ClientConfiguration.resolve(caFile: "/flag.pem", environment: environment).tls?.caFile
                    == "/flag.pem"
            )
        }
        for off in ["0", "false", "no", "off", ""] {
            let environment = empty.merging(["STREAK_TLS": off, "STREAK_CA_FILE": "/env.pem"]) { $1 }
            #expect(try ClientConfiguration.resolve(environment: environment).tls == nil)
        }
        #expect(throws: StreakClientError.self) {
            try ClientConfiguration.resolve(environment: empty.merging(["STREAK_TLS": "maybe"]) { $1 })
        }
    }

    @Test func ipv6DescriptionHasBrackets() {
        #expect(ServerAddress(host: "::1", port: 7411).description == "[::1]:7411")
    }

    @Test(arguments: [
        (["STREAKD_DATA_DIR": "/d", "XDG_DATA_HOME": "/x", "HOME": "/h"], "/d"),
        (["XDG_DATA_HOME": "/x", "HOME": "/h"], "/x/streakd"),
        (["HOME": "/h"], "/h/.local/share/streakd"),
    ])
    func defaultDataDirectory(environment: [String: String], expected: String) {
        #expect(ClientConfiguration.defaultDataDirectory(environment: environment).path == expected)
    }

    @Test func precedenceFlagThenEnvironmentThenTokenFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("streak-config-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "stk_file\n".write(to: directory.appendingPathComponent("token"), atomically: true, encoding: .utf8)
        let environment = ["STREAKD_DATA_DIR": directory.path, "STREAK_SERVER": "10.0.0.1:1234"]
        let fromFile = try ClientConfiguration.resolve(environment: environment)
        #expect(fromFile.token == "stk_file")
        #expect(fromFile.server == ServerAddress(host: "10.0.0.1", port: 1234))
        let fromEnvironment = try ClientConfiguration.resolve(
            environment: environment.merging(["STREAK_TOKEN": "stk_env"]) { $1 }
        )
        #expect(fromEnvironment.token == "stk_env")
        let fromFlags = try ClientConfiguration.resolve(server: "h:1", token: "stk_flag", environment: environment)
        #expect(fromFlags.token == "stk_flag")
        #expect(fromFlags.server == ServerAddress(host: "h", port: 1))
    }
}
