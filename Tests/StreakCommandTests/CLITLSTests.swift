import Foundation
import StreakTestSupport
import Testing

/// `streak --tls`, `--ca-file`, `--tls-server-name` and STREAK_TLS / STREAK_CA_FILE against a
/// real streakd serving TLS with certificates made by the openssl command.
@Suite("streak over TLS", .serialized)
struct CLITLSTests {
    static let certificates = Result { try TestCertificates() }

    @Test("--ca-file (or STREAK_TLS with STREAK_CA_FILE) connects and verifies; commands work as over plaintext")
    func verified() throws {
        let certificates = try Self.certificates.get()
        let server = try ServerProcess.startTLS(certificates.server)
        defer {
            server.stop()
            server.removeDataDirectory()
        }
        let cli = CLIRunner(server: "localhost:\(server.port)", token: server.token)
        let added = try cli.run(["habit", "add", "Read", "--ca-file", certificates.caFile])
        #expect(added.status == 0, "\(added.stderr)")
        let listed = try cli.run(
            ["habit", "list", "--json"],
            environment: ["STREAK_TLS": "1", "STREAK_CA_FILE": certificates.caFile]
        )
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(
            listed.stdout.contains("\"name\" : \"Read\"") || listed.stdout.contains("\"name\": \"Read\""),
            "\(listed.stdout)"
        )
        let byAddress = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        let today = try byAddress.run(["--tls", "--ca-file", certificates.caFile])
        #expect(today.status == 0, "\(today.stderr)")
        #expect(today.stdout.contains("Read"))
    }

    @Test(
        "a refused certificate exits 69 with 'certificate verify failed: ...' naming the reason",
        arguments: [
            ("wrong-host", "certificate verify failed: hostname mismatch", "--tls-server-name"),
            ("expired", "certificate verify failed: certificate has expired", ""),
            ("unknown-ca", "certificate verify failed: unknown CA", "pass --ca-file"),
            ("system-store", "certificate verify failed: unknown CA", "pass --ca-file"),
        ]
    )
    func refused(name: String, text: String, hint: String) throws {
        let certificates = try Self.certificates.get()
        let pair: TestCertificates.Pair =
            switch name {
            case "wrong-host": certificates.wrongHost
            case "expired": certificates.expired
            case "unknown-ca": certificates.unknownAuthority
            default: certificates.server
            }
        let server = try ServerProcess.startTLS(pair)
        defer {
            server.stop()
            server.removeDataDirectory()
        }
        let cli = CLIRunner(server: "localhost:\(server.port)", token: server.token)
        // The system store does not know the test CA either.
        let flags = name == "system-store" ? ["--tls"] : ["--ca-file", certificates.caFile]
        let result = try cli.run(["habit", "list"] + flags)
        #expect(result.status == 69, "\(result.stderr)")
        #expect(
            result.stderr.hasPrefix("streak: cannot connect to streakd at localhost:\(server.port) over TLS: \(text)"),
            "\(result.stderr)"
        )
        #expect(hint.isEmpty || result.stderr.contains(hint), "\(result.stderr)")
        #expect(server.waitForLog("TLS handshake failed"), "\(server.logTail)")
    }

    @Test("a hostname mismatch names the name that was checked: --tls-server-name's when it is given")
    func hostnameMismatchNamesTheNameChecked() throws {
        let certificates = try Self.certificates.get()
        let server = try ServerProcess.startTLS(certificates.server)
        defer {
            server.stop()
            server.removeDataDirectory()
        }
        let cli = CLIRunner(server: "localhost:\(server.port)", token: server.token)
        let result = try cli.run(["habit", "list", "--ca-file", certificates.caFile, "--tls-server-name", "elsewhere"])
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.contains("hostname mismatch"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("-- the name checked is --tls-server-name's 'elsewhere'\n"), "\(result.stderr)")
        #expect(!result.stderr.contains("--server's host"), "\(result.stderr)")
    }

    @Test("streak without TLS against a TLS port, and with TLS against a plaintext port, say what is wrong (69)")
    func mismatchedTransport() throws {
        let certificates = try Self.certificates.get()
        let tlsServer = try ServerProcess.startTLS(certificates.server)
        defer {
            tlsServer.stop()
            tlsServer.removeDataDirectory()
        }
        let plain = try CLIRunner(server: "127.0.0.1:\(tlsServer.port)", token: tlsServer.token).run(["habit", "list"])
        #expect(plain.status == 69, "\(plain.stderr)")
        #expect(
            plain.stderr.contains("this streakd port requires TLS: connect with TLS (streak --tls)"),
            "\(plain.stderr)"
        )
        #expect(tlsServer.waitForLog("a plaintext client connected to the TLS port"))

        let plainServer = try ServerProcess.start()
        defer {
            plainServer.stop()
            plainServer.removeDataDirectory()
        }
        let tls = try CLIRunner(server: "127.0.0.1:\(plainServer.port)", token: plainServer.token)
            .run(["habit", "list", "--ca-file", certificates.caFile])
        #expect(tls.status == 69, "\(tls.stderr)")
        #expect(tls.stderr.contains("it does not serve TLS on this port"), "\(tls.stderr)")
    }

    @Test("a CA file that does not load and a bad STREAK_TLS are usage errors (64)")
    func usage() throws {
        let missing = try CLIRunner(server: "127.0.0.1:1", token: "t").run([
            "habit", "list", "--ca-file", "/nonexistent/ca.pem",
        ])
        #expect(missing.status == 64, "\(missing.stderr)")
        #expect(
            missing.stderr.contains("cannot load CA certificates from /nonexistent/ca.pem: No such file or directory"),
            "\(missing.stderr)"
        )
        let bad = try CLIRunner(server: "127.0.0.1:1", token: "t").run(
            ["habit", "list"],
            environment: ["STREAK_TLS": "maybe"]
        )
        #expect(bad.status == 64, "\(bad.stderr)")
        #expect(bad.stderr.contains("STREAK_TLS is 'maybe'; set it to 1, true, yes or on for TLS"), "\(bad.stderr)")
    }
}
