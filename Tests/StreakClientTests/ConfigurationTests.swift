import Foundation
import StreakClient
import StreakTestSupport
import Testing

@Suite("Addresses and configuration (no server)")
struct ConfigurationTests {
    /// docs/vectors/server-addresses.json, which the Python and C clients' tests read too.
    @Test func parsesAddressesAsTheSharedCasesSay() throws {
        for vector in try TestVectors.ServerAddresses.load().addresses {
            do {
                let address = try ServerAddress(parsing: vector.text)
                #expect(vector.error == nil, "'\(vector.text)' was accepted: \(address)")
                #expect(address.host == vector.host && address.port == vector.port, "'\(vector.text)': \(address)")
                #expect(address.isLoopback == vector.loopback, "'\(vector.text)'")
            } catch {
                #expect(error.code == .invalidArgument)
                #expect(vector.error != nil, "'\(vector.text)' was refused: \(error.message)")
                #expect(error.message.contains(vector.error ?? "?"), "'\(vector.text)': \(error.message)")
            }
        }
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
        do {
            _ = try ClientConfiguration.resolve(environment: empty.merging(["STREAK_TLS": "maybe"]) { $1 })
            Issue.record("STREAK_TLS=maybe was taken")
        } catch {
            #expect(error.code == .invalidArgument)
            #expect(error.detail == .invalidEnvironment(name: "STREAK_TLS"))
        }
        do {
            _ = try ClientConfiguration.resolve(server: "host:http", environment: empty)
            Issue.record("a bad address was taken")
        } catch {
            #expect(error.detail == .invalidServerAddress)
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
        let environment = ["STREAKD_DATA_DIR": directory.path, "STREAK_SERVER": "127.0.0.2:1234"]
        let fromFile = try ClientConfiguration.resolve(environment: environment)
        #expect(fromFile.token == "stk_file")
        #expect(fromFile.server == ServerAddress(host: "127.0.0.2", port: 1234))
        let fromEnvironment = try ClientConfiguration.resolve(
            environment: environment.merging(["STREAK_TOKEN": "stk_env"]) { $1 }
        )
        #expect(fromEnvironment.token == "stk_env")
        let fromFlags = try ClientConfiguration.resolve(
            server: "h:1",
            token: "stk_flag",
            tls: true,
            environment: environment
        )
        #expect(fromFlags.token == "stk_flag")
        #expect(fromFlags.server == ServerAddress(host: "h", port: 1))
        // White space around a pasted token is not part of it; a token of white space is none.
        let padded = try ClientConfiguration.resolve(
            environment: environment.merging(["STREAK_TOKEN": " stk_env\n"]) { $1 }
        )
        #expect(padded.token == "stk_env" && padded.tokenSource == .environment)
        let paddedFlag = try ClientConfiguration.resolve(token: "stk_flag \r\n", environment: environment)
        #expect(paddedFlag.token == "stk_flag" && paddedFlag.tokenSource == .argument)
        let blank = try ClientConfiguration.resolve(environment: environment.merging(["STREAK_TOKEN": " \n"]) { $1 })
        #expect(blank.token == "stk_file")
    }

    @Test func loopbackIsThisMachineAsWritten() throws {
        for vector in try TestVectors.ServerAddresses.load().loopback {
            #expect(ServerAddress(host: vector.host, port: 7411).isLoopback == vector.loopback, "'\(vector.host)'")
        }
    }

    /// The local token file is the local streakd's: it goes to no other machine, not even over TLS
    /// (it went to any `--server`, in clear).
    @Test func theTokenFileIsOnlyForAServerOnThisMachine() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("streak-config-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "stk_file\n".write(to: directory.appendingPathComponent("token"), atomically: true, encoding: .utf8)
        let environment = ["STREAKD_DATA_DIR": directory.path]
        for local in ["127.0.0.1:1", "127.3.4.5", "localhost:7411", "[::1]:7411", ":7411"] {
            #expect(try ClientConfiguration.resolve(server: local, environment: environment).token == "stk_file")
        }
        #expect(try ClientConfiguration.resolve(environment: environment).token == "stk_file")
        for remote in ["10.0.0.1:1234", "streakd.example:7411", "127.0.0.1.example:1", "[2001:db8::1]:7411"] {
            #expect(try ClientConfiguration.resolve(server: remote, environment: environment).token == nil)
            #expect(try ClientConfiguration.resolve(server: remote, tls: true, environment: environment).token == nil)
            let fromEnvironment = environment.merging(["STREAK_SERVER": remote, "STREAK_TLS": "1"]) { $1 }
            #expect(try ClientConfiguration.resolve(environment: fromEnvironment).token == nil)
        }
    }

    /// Without TLS a token goes in clear only to this machine, unless `insecurePlaintext`.
    @Test func aTokenInClearToAnotherMachineIsRefused() throws {
        let empty: [String: String] = ["HOME": "/nonexistent"]
        let withToken = empty.merging(["STREAK_TOKEN": "stk_env"]) { $1 }
        for (token, environment) in [("stk_flag", empty), (nil, withToken)] {
            do {
                _ = try ClientConfiguration.resolve(server: "10.0.0.1:1234", token: token, environment: environment)
                Issue.record("a token in clear to 10.0.0.1 was not refused")
            } catch {
                #expect(error.code == .failedPrecondition)
                #expect(error.message.contains("refusing to send the token in clear to 10.0.0.1:1234"), "\(error)")
            }
            let overTLS = try ClientConfiguration.resolve(
                server: "10.0.0.1:1234",
                token: token,
                tls: true,
                environment: environment
            )
            #expect(overTLS.token != nil && !overTLS.sendsTokenInClear)
            let insecure = try ClientConfiguration.resolve(
                server: "10.0.0.1:1234",
                token: token,
                insecurePlaintext: true,
                environment: environment
            )
            #expect(insecure.token != nil && insecure.sendsTokenInClear)
            let local = try ClientConfiguration.resolve(
                server: "127.0.0.1:1234",
                token: token,
                environment: environment
            )
            #expect(local.token != nil && !local.sendsTokenInClear)
        }
        // No token, nothing to protect: plaintext to another machine is the server's business.
        #expect(try ClientConfiguration.resolve(server: "10.0.0.1:1234", environment: empty).token == nil)
    }

    /// Where the token came from is recorded, and the token file is read once, by `resolve`.
    @Test func tokenSourceSaysWhereTheTokenCameFrom() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("streak-config-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("token").path
        let environment = ["STREAKD_DATA_DIR": directory.path]
        let withEnvironmentToken = environment.merging(["STREAK_TOKEN": "stk_env"]) { $1 }
        #expect(
            try ClientConfiguration.resolve(environment: environment).tokenSource
                == .fileProblem(path: file, reason: "does not exist")
        )
        try " \n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(
            try ClientConfiguration.resolve(environment: environment).tokenSource
                == .fileProblem(path: file, reason: "is empty")
        )
        try "stk_file\n".write(toFile: file, atomically: true, encoding: .utf8)
        let cases: [(String?, String?, [String: String], TokenSource, String?)] = [
            (nil, nil, environment, .file(path: file), "stk_file"),
            (nil, nil, withEnvironmentToken, .environment, "stk_env"),
            ("stk_flag", nil, withEnvironmentToken, .argument, "stk_flag"),
            (nil, "10.0.0.1:1", environment, .notLoopback, nil),
            (nil, "10.0.0.1:1", withEnvironmentToken.merging(["STREAK_TLS": "1"]) { $1 }, .environment, "stk_env"),
        ]
        for (token, server, environment, source, expected) in cases {
            let configuration = try ClientConfiguration.resolve(server: server, token: token, environment: environment)
            #expect(configuration.tokenSource == source, "\(token ?? "-") \(server ?? "-")")
            #expect(configuration.token == expected)
        }
        #expect(ClientConfiguration().tokenSource == TokenSource.none)
        #expect(ClientConfiguration(token: "stk_x").tokenSource == .argument)
    }

    /// A token file that is there but cannot be read is an error that names it, not a silent
    /// "no token" that the server then refuses without saying why.
    @Test func anUnreadableTokenFileIsAnError() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("streak-config-\(UUID())")
        let file = directory.appendingPathComponent("token")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = ["STREAKD_DATA_DIR": directory.path]
        var cases: [(String, () throws -> Void)] = [
            (
                "is a directory, not a file",
                { try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true) }
            ),
            ("is not UTF-8 text", { try Data([0x73, 0xFF, 0xFE, 0x0A]).write(to: file) }),
        ]
        if getuid() != 0 {  // root reads any file
            cases.append(
                (
                    "cannot be read: permission denied",
                    {
                        try "stk_x".write(to: file, atomically: true, encoding: .utf8)
                        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: file.path)
                    }
                )
            )
        }
        for (reason, make) in cases {
            try? FileManager.default.removeItem(at: file)
            try make()
            do {
                let configuration = try ClientConfiguration.resolve(environment: environment)
                Issue.record("\(reason): resolved to \(configuration.tokenSource)")
            } catch {
                #expect(error.code == .unauthenticated)
                #expect(error.detail == .tokenFileUnreadable(path: file.path, reason: reason), "\(error)")
                #expect(error.message.contains("the token file \(file.path) \(reason)"), "\(error)")
            }
            // Another source first: the file is not read at all.
            let given = try ClientConfiguration.resolve(token: "stk_flag", environment: environment)
            #expect(given.tokenSource == .argument)
        }
    }
}
