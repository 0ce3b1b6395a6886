import Foundation
import StreakTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Set-up mistakes get messages that name what was tried and why it failed: a malformed
/// `--server`, a `STREAK_TLS` that is not a yes or a no, and a token that is missing or refused.
@Suite("streak's set-up errors", .serialized)
struct CLISetupErrorTests {
    @Test(arguments: [
        (["--server", "http://127.0.0.1:7609"], "--server: 'http://127.0.0.1:7609' has a scheme (http://)"),
        (["--server", "host:1:2"], "--server: 'host:1:2' has more than one ':'; expected HOST:PORT"),
        (["--server", "::1"], "an IPv6 address goes in brackets: [::1]:7411"),
        (["--server", "127.0.0.1:7609/streak"], "--server: '127.0.0.1:7609/streak' has a path"),
    ])
    func aMalformedServerIsAUsageError(arguments: [String], message: String) throws {
        let output = try CLIRunner.run(arguments + ["streak"])
        #expect(output.status == 64, "\(arguments): \(output.status) \(output.stderr)")
        #expect(output.stderr.contains(message), "\(output.stderr)")
        #expect(output.stderr.contains("(e.g. 127.0.0.1:7411)"), "\(output.stderr)")
    }

    @Test func aMalformedServerInTheEnvironmentIsNamed() throws {
        let output = try CLIRunner.run(["streak"], environment: ["STREAK_SERVER": "https://example.org"])
        #expect(output.status == 64)
        #expect(
            output.stderr.hasPrefix("streak: STREAK_SERVER: 'https://example.org' has a scheme"),
            "\(output.stderr)"
        )
    }

    @Test func aBadSTREAKTLSListsTheValuesTaken() throws {
        let output = try CLIRunner.run(["streak"], environment: ["STREAK_TLS": "maybe"])
        #expect(output.status == 64)
        #expect(
            output.stderr
                == "streak: STREAK_TLS is 'maybe'; set it to 1, true, yes or on for TLS, "
                + "or 0, false, no or off (or leave it unset) for plaintext\n"
        )
    }

    @Test func aMissingOrRefusedTokenNamesWhereItWasLookedFor() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let address = "127.0.0.1:\(server.port)"
        let empty = ServerProcess.temporaryDirectory(prefix: "streak-no-token")
        let directory = ServerProcess.temporaryDirectory(prefix: "streak-token-dir")
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("token"),
            withIntermediateDirectories: true
        )
        let stale = ServerProcess.temporaryDirectory(prefix: "streak-stale-token")
        try ("stk_" + String(repeating: "0", count: 64)).write(
            to: stale.appendingPathComponent("token"),
            atomically: true,
            encoding: .utf8
        )
        let cases: [([String], [String: String], String)] = [
            ([], ["STREAKD_DATA_DIR": empty.path], "the token file \(empty.path)/token does not exist"),
            ([], ["STREAKD_DATA_DIR": directory.path], "the token file \(directory.path)/token is a directory"),
            (
                [], ["STREAKD_DATA_DIR": stale.path],
                "the token read from \(stale.path)/token is not one this streakd knows"
            ),
            (["--token", "stk_wrong"], [:], "the token given with --token is not one this streakd knows"),
            ([], ["STREAK_TOKEN": "stk_wrong"], "the token in STREAK_TOKEN is not one this streakd knows"),
        ]
        for (arguments, environment, message) in cases {
            let output = try CLIRunner.run(["--server", address] + arguments + ["streak"], environment: environment)
            #expect(output.status == 77, "\(environment): \(output.status) \(output.stderr)")
            #expect(output.stderr.contains(message), "\(environment): \(output.stderr)")
        }
        let missing = try CLIRunner.run(["--server", address, "streak"], environment: ["STREAKD_DATA_DIR": empty.path])
        #expect(missing.stderr.contains("a local streakd writes <data dir>/token on its first start"))
    }

    /// The local token file is for the local streakd: a `--server` on another machine gets no token
    /// from it (it was sent there, in clear, before the server said a word), and a token is not sent
    /// in clear to another machine (the message names `--tls`). Both are said before connecting
    /// (203.0.113.1 and 2001:db8::1 are documentation addresses, but whatever answers there is
    /// never asked).
    @Test func noTokenGoesInClearToAnotherMachine() throws {
        let directory = ServerProcess.temporaryDirectory(prefix: "streak-local-token")
        try "stk_local".write(to: directory.appendingPathComponent("token"), atomically: true, encoding: .utf8)
        let local = ["STREAKD_DATA_DIR": directory.path]
        let noToken =
            "streak: no token: the local token file is used only for a server on this machine, and "
            + "203.0.113.1:7411 is not one; give --token or STREAK_TOKEN"
        let inClear = "streak: refusing to send the token in clear to 203.0.113.1:7411, which is not a loopback address"
        let cases: [([String], [String: String], Int32, String)] = [
            (["--server", "203.0.113.1:7411"], local, 77, noToken),
            (["--server", "203.0.113.1:7411", "--tls"], local, 77, noToken),
            ([], local.merging(["STREAK_SERVER": "203.0.113.1"]) { $1 }, 77, noToken),
            (["--server", "203.0.113.1:7411", "--token", "stk_x"], local, 64, inClear),
            (["--server", "203.0.113.1:7411"], local.merging(["STREAK_TOKEN": "stk_x"]) { $1 }, 64, inClear),
            (
                ["--server", "[2001:db8::1]:7411", "--token", "stk_x"], [:], 64,
                "streak: refusing to send the token in clear to [2001:db8::1]:7411"
            ),
        ]
        for (arguments, environment, status, message) in cases {
            let output = try CLIRunner.run(arguments + ["--timeout", "2", "habit", "list"], environment: environment)
            #expect(output.status == status, "\(arguments) \(environment): \(output.status) \(output.stderr)")
            #expect(output.stderr.hasPrefix(message), "\(arguments): \(output.stderr)")
            if status == 64 {
                #expect(output.stderr.contains("Connect with --tls (or set STREAK_TLS=1)"), "\(output.stderr)")
                #expect(output.stderr.contains("--insecure-plaintext"), "\(output.stderr)")
            }
            #expect(!output.stderr.contains("cannot connect"), "\(arguments) tried to connect: \(output.stderr)")
        }
        // --insecure-plaintext sends it anyway: the CLI connects, or tries to (how that ends depends
        // on the network: nothing answers, or something that is not streakd does).
        let anyway = try CLIRunner.run(
            [
                "--server", "203.0.113.1:7411", "--token", "stk_x", "--insecure-plaintext", "--timeout", "1", "habit",
                "list",
            ]
        )
        #expect(![0, 64, 77].contains(anyway.status), "\(anyway.status) \(anyway.stderr)")
        #expect(!anyway.stderr.contains("refusing") && !anyway.stderr.contains("no token"), "\(anyway.stderr)")
    }

    /// For a server on this machine the token file is still read: 127.0.0.1 and localhost alike.
    @Test func theTokenFileServesAServerOnThisMachine() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        for host in ["127.0.0.1", "localhost"] {
            let output = try CLIRunner.run(
                ["--server", "\(host):\(server.port)", "habit", "list"],
                environment: ["STREAKD_DATA_DIR": server.dataDirectory.path]
            )
            #expect(output.status == 0, "\(host): \(output.stderr)")
        }
    }

    @Test(.enabled(if: getuid() != 0, "root reads any file"))
    func anUnreadableTokenFileSaysPermissionDenied() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let locked = ServerProcess.temporaryDirectory(prefix: "streak-locked-token")
        let file = locked.appendingPathComponent("token")
        try "stk_x".write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: file.path)
        let output = try CLIRunner.run(
            ["--server", "127.0.0.1:\(server.port)", "streak"],
            environment: ["STREAKD_DATA_DIR": locked.path]
        )
        #expect(output.status == 77)
        #expect(output.stderr.contains("\(file.path) cannot be read: permission denied"), "\(output.stderr)")
    }
}
