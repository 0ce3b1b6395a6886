import Foundation
import StreakClient
import StreakCore
import StreakFraming
import StreakTestSupport
import StreakWire
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// streakd with `--tls-cert`/`--tls-key` against the Swift client and raw connections, with a
/// throwaway CA and certificates made by the openssl command: what works, what fails and what
/// each side says about it.
@Suite("TLS", .serialized)
struct TLSTests {
    static let certificates = Result { try TestCertificates() }

    /// A streakd serving `pair` (copied into its data directory, so a test may replace it).
    static func start(
        _ pair: TestCertificates.Pair,
        extraArguments: [String] = []
    ) throws -> (server: ServerProcess, certificate: String, key: String) {
        let directory = ServerProcess.temporaryDirectory()
        let flags = try TestCertificates.serverFlags(pair, in: directory.appendingPathComponent("tls"))
        let server = try ServerProcess.start(dataDirectory: directory, extraArguments: flags.arguments + extraArguments)
        return (server, flags.certificate, flags.key)
    }

    static func client(
        _ server: ServerProcess,
        host: String = "localhost",
        tls: ClientTLSConfiguration?
    ) -> StreakClient {
        StreakClient(
            configuration: ClientConfiguration(
                server: ServerAddress(host: host, port: server.port),
                token: server.token,
                connectTimeout: .seconds(10),
                tls: tls
            )
        )
    }

    /// The error a call on `client` fails with.
    static func failure(_ client: StreakClient) async -> StreakClientError? {
        do {
            _ = try await client.listHabits()
            return nil
        } catch {
            return error
        }
    }

    @Test(
        "a verified connection works by host name and by address; requests and answers are unchanged inside TLS",
        .ownThreads
    )
    func verifiedConnection() async throws {
        let certificates = try Self.certificates.get()
        let (server, _, _) = try Self.start(certificates.server)
        defer {
            server.stop()
            server.removeDataDirectory()
        }
        for host in ["localhost", "127.0.0.1"] {
            let client = Self.client(server, host: host, tls: ClientTLSConfiguration(caFile: certificates.caFile))
            defer { client.close() }
            let habit = try await client.createHabit(name: "Read over TLS via \(host)")
            #expect(try await client.listHabits().contains { $0.id == habit.id })
            let info = try await client.serverInfo()
            #expect(!info.version.isEmpty)
        }
        // A raw connection inside TLS: the same preface, then frames.
        let connection = try server.connectTLS(caFile: certificates.caFile)
        #expect(connection.tls?.session.protocolVersion == "TLSv1.3")
        #expect(connection.tls?.session.applicationProtocol == "streakd/1")
        try connection.send(.ping(77))
        #expect(try connection.readFrame() == .pong(77))
        #expect(!server.log.contains("TLS handshake failed"), "\(server.logTail)")
    }

    @Test(
        "a wrong host name, an expired certificate and an unknown CA each fail with the reason on the client and a log line on the server",
        .ownThreads,
        arguments: [
            ("wrong-host", "certificate verify failed: hostname mismatch", "sslv3 alert bad certificate"),
            ("wrong-name", "certificate verify failed: hostname mismatch", "sslv3 alert bad certificate"),
            ("expired", "certificate verify failed: certificate has expired", "sslv3 alert certificate expired"),
            ("unknown-ca", "certificate verify failed: unknown CA", "tlsv1 alert unknown ca"),
        ]
    )
    func refusedCertificates(name: String, clientText: String, serverText: String) async throws {
        let detail: StreakClientError.Detail =
            switch name {
            case "expired": .tlsCertificateOutOfDate
            case "unknown-ca": .tlsUnknownAuthority
            default: .tlsHostnameMismatch
            }
        let certificates = try Self.certificates.get()
        let pair: TestCertificates.Pair =
            switch name {
            case "wrong-host": certificates.wrongHost
            case "expired": certificates.expired
            case "unknown-ca": certificates.unknownAuthority
            default: certificates.server
            }
        let (server, _, _) = try Self.start(pair)
        defer {
            server.stop()
            server.removeDataDirectory()
        }
        let serverName = name == "wrong-name" ? "streakd.example" : nil
        let client = Self.client(
            server,
            tls: ClientTLSConfiguration(caFile: certificates.caFile, serverName: serverName)
        )
        defer { client.close() }
        let error = try #require(await Self.failure(client))
        #expect(error.code == .unavailable)
        #expect(error.origin == .connect)
        #expect(error.message.contains(clientText), "\(error)")
        #expect(error.detail == detail, "\(error)")
        #expect(error.message.contains("over TLS"), "\(error)")
        #expect(
            server.waitForLog("TLS handshake failed (the client refused the server's certificate)"),
            "\(server.logTail)"
        )
        #expect(server.log.contains(serverText), "\(server.logTail)")
        #expect(server.process.isRunning)
    }

    @Test(
        "a plaintext client against the TLS port gets a GOAWAY that says TLS is required, and the server logs it",
        .ownThreads
    )
    func plaintextClientAgainstTLSPort() async throws {
        let certificates = try Self.certificates.get()
        let (server, _, _) = try Self.start(certificates.server)
        defer {
            server.stop()
            server.removeDataDirectory()
        }
        let client = Self.client(server, tls: nil)
        defer { client.close() }
        let error = try #require(await Self.failure(client))
        #expect(error.code == .unavailable)
        #expect(error.message.contains("this streakd port requires TLS"), "\(error)")
        #expect(server.waitForLog("a plaintext client connected to the TLS port"), "\(server.logTail)")
        #expect(server.log.contains("first-bytes=STREAKD\\x01"), "\(server.logTail)")

        // A raw plaintext connection reads our preface, then the GOAWAY, then the end.
        let raw = try TestConnection(port: server.port, exchangePreface: false)
        try raw.sendRaw(Preface.bytes)
        try raw.readPreface()
        let frames = raw.framesUntilClose()
        guard case .goAway(0, let status)? = frames.first else {
            Issue.record("expected GOAWAY, got \(frames)")
            return
        }
        #expect(status.code == .invalidArgument)
        #expect(status.message.contains("requires TLS"))
    }

    @Test("a TLS client against a plaintext port is told that the server does not serve TLS", .ownThreads)
    func tlsClientAgainstPlaintextPort() async throws {
        let certificates = try Self.certificates.get()
        let server = try ServerProcess.start()
        defer {
            server.stop()
            server.removeDataDirectory()
        }
        let client = Self.client(server, tls: ClientTLSConfiguration(caFile: certificates.caFile))
        defer { client.close() }
        let error = try #require(await Self.failure(client))
        #expect(error.message.contains("does not serve TLS"), "\(error)")
    }

    @Test("the handshake timeout covers the TLS handshake: a client that never finishes it is closed and logged")
    func handshakeTimeout() throws {
        let certificates = try Self.certificates.get()
        let (server, _, _) = try Self.start(certificates.server, extraArguments: ["--handshake-timeout", "1"])
        defer {
            server.stop()
            server.removeDataDirectory()
        }
        // A TCP connection that sends nothing, and one that stops after the first bytes of a hello.
        let silent = try TestSocket.connect(port: server.port, timeout: .seconds(10))
        defer { Glibc.close(silent) }
        let partial = try TestSocket.connect(port: server.port, timeout: .seconds(10))
        defer { Glibc.close(partial) }
        try TestSocket.sendAll(partial, [22, 3, 1, 0, 200, 1])
        let started = ContinuousClock.now
        for descriptor in [silent, partial] {
            var buffer = [UInt8](repeating: 0, count: 64)
            #expect(try TestSocket.receive(descriptor, &buffer) == 0)
        }
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(
            server.waitForLog("TLS handshake did not complete within the handshake timeout"),
            "\(server.logTail)"
        )
        // And a client that completes it in time is served.
        let connection = try server.connectTLS(caFile: certificates.caFile)
        try connection.send(.ping(1))
        #expect(try connection.readFrame() == .pong(1))
    }

    @Test("a handshake that fails after the client reset the connection is logged with the client's address")
    func failedHandshakeOfAResetConnectionNamesThePeer() throws {
        let certificates = try Self.certificates.get()
        let (server, _, _) = try Self.start(certificates.server)
        defer {
            server.stop()
            server.removeDataDirectory()
        }
        let descriptor = try TestSocket.connect(port: server.port, timeout: .seconds(10))
        let port = try Self.localPort(of: descriptor)
        // The first byte of a handshake record: the server accepts the connection and waits for more.
        try TestSocket.sendAll(descriptor, [22])
        usleep(300_000)
        // With the server stopped, the rest of the record (a handshake message of an unknown type)
        // and then a reset wait in its socket together: it reads the record after the reset.
        Glibc.kill(server.pid, SIGSTOP)
        var resumed = false
        defer { if !resumed { Glibc.kill(server.pid, SIGCONT) } }
        try TestSocket.sendAll(descriptor, [3, 1, 0, 4, 0xff, 0, 0, 0])
        var reset = linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &reset, socklen_t(MemoryLayout<linger>.size))
        Glibc.close(descriptor)
        usleep(100_000)
        Glibc.kill(server.pid, SIGCONT)
        resumed = true
        #expect(server.waitForLog("TLS handshake failed"), "\(server.logTail)")
        let line = server.log.split(separator: "\n").first { $0.contains("TLS handshake failed") } ?? ""
        #expect(line.contains("peer=127.0.0.1:\(port)"), "\(line)")
    }

    /// The local port of a connected socket.
    static func localPort(of descriptor: Int32) throws -> UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw TestSupportError("getsockname failed: errno \(errno)") }
        return UInt16(bigEndian: address.sin_port)
    }

    @Test(
        "SIGHUP reloads the pair: an open connection goes on, new ones see the new certificate; a bad pair keeps the old one",
        .ownThreads
    )
    func reloadOnSIGHUP() async throws {
        let certificates = try Self.certificates.get()
        let (server, certificate, key) = try Self.start(certificates.server)
        defer {
            server.stop()
            server.removeDataDirectory()
        }
        let firstCA = ClientTLSConfiguration(caFile: certificates.caFile)
        let secondCA = ClientTLSConfiguration(caFile: certificates.otherCAFile)
        let open = Self.client(server, tls: firstCA)
        defer { open.close() }
        _ = try await open.createHabit(name: "Before the reload")
        let openConnection = try await open.connection()

        // A key that does not load: logged, and the old pair still serves.
        try "not a key".write(toFile: key, atomically: true, encoding: .utf8)
        kill(server.pid, SIGHUP)
        #expect(server.waitForLog("did not load; still serving the previous ones"), "\(server.logTail)")
        let stillFirst = Self.client(server, tls: firstCA)
        defer { stillFirst.close() }
        #expect(try await stillFirst.listHabits().count == 1)

        // The second CA's certificate: new connections see it.
        try TestCertificates.install(certificates.reissued, certificate: certificate, key: key)
        kill(server.pid, SIGHUP)
        #expect(server.waitForLog("reloaded the TLS certificate and key"), "\(server.logTail)")
        let newWithFirst = Self.client(server, tls: firstCA)
        defer { newWithFirst.close() }
        let refused = try #require(await Self.failure(newWithFirst))
        #expect(refused.message.contains("certificate verify failed: unknown CA"), "\(refused)")
        let newWithSecond = Self.client(server, tls: secondCA)
        defer { newWithSecond.close() }
        #expect(try await newWithSecond.listHabits().count == 1)

        // The connection opened before the reload is the same one, and still works.
        _ = try await open.createHabit(name: "After the reload")
        #expect(try await open.connection() === openConnection)
        #expect(try await open.listHabits().count == 2)
        #expect(server.process.isRunning)
    }

    @Test("an encrypted key is refused with what to do, at start and on SIGHUP, and never waits for a passphrase")
    func encryptedKey() throws {
        let certificates = try Self.certificates.get()
        let (server, _, key) = try Self.start(certificates.server)
        defer {
            server.stop()
            server.removeDataDirectory()
        }
        let encrypted = URL(fileURLWithPath: key).deletingLastPathComponent().appendingPathComponent("encrypted.pem")
        _ = try TestCertificates.openssl(
            ["pkey", "-in", key, "-aes256", "-passout", "pass:secret", "-out", encrypted.path],
            in: certificates.directory
        )
        let directory = ServerProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let refused = try ServerProcess.run(
            [
                "--port", "0", "--data-dir", directory.path, "--tls-cert", certificates.server.certificate,
                "--tls-key", encrypted.path,
            ],
            timeout: .seconds(30)
        )
        #expect(refused.status == 64, "\(refused)")
        #expect(refused.error.contains("the private key in \(encrypted.path) is encrypted"), "\(refused.error)")
        #expect(!refused.error.contains("pass phrase"), "\(refused.error)")

        // On SIGHUP: logged, the old pair serves on, and SIGTERM still shuts the server down.
        try FileManager.default.removeItem(atPath: key)
        try FileManager.default.copyItem(atPath: encrypted.path, toPath: key)
        kill(server.pid, SIGHUP)
        #expect(server.waitForLog("did not load; still serving the previous ones"), "\(server.logTail)")
        #expect(server.log.contains("is encrypted (it needs a passphrase"), "\(server.logTail)")
        let connection = try server.connectTLS(caFile: certificates.caFile)
        try connection.send(.ping(3))
        #expect(try connection.readFrame() == .pong(3))
        #expect(server.stop(timeout: .seconds(10)) == 0, "\(server.logTail)")
    }

    @Test("a key file other users can read is served, with a warning at start and on reload")
    func readableKeyIsWarnedAbout() throws {
        let certificates = try Self.certificates.get()
        let (server, _, key) = try Self.start(certificates.server)
        defer {
            server.stop()
            server.removeDataDirectory()
        }
        let warning = "the TLS private key file can be read by other users"
        #expect(server.waitForLog("serving TLS"), "\(server.logTail)")
        #expect(!server.log.contains(warning), "\(server.logTail)")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: key)
        kill(server.pid, SIGHUP)
        #expect(server.waitForLog("reloaded the TLS certificate and key"), "\(server.logTail)")
        #expect(server.waitForLog(warning), "\(server.logTail)")
        #expect(server.log.contains("mode=644"), "\(server.logTail)")
    }

    @Test(
        "a host that is not an IPv4 address is refused before the store is made, saying why",
        arguments: [
            ("::1", "does not listen on IPv6 yet"),
            ("example.com", "a host name other than localhost is not looked up"),
        ]
    )
    func hostMustBeIPv4(host: String, why: String) throws {
        let directory = ServerProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let refused = try ServerProcess.run(["--host", host, "--port", "0", "--data-dir", directory.path])
        #expect(refused.status == 64, "\(refused)")
        #expect(refused.error.contains("--host must be an IPv4 address"), "\(refused.error)")
        #expect(refused.error.contains(why), "\(refused.error)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("token").path))
    }

    @Test("a non-loopback address without TLS refuses to start unless --insecure-plaintext; with TLS it starts")
    func nonLoopbackNeedsTLS() throws {
        let certificates = try Self.certificates.get()
        let directory = ServerProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let refused = try ServerProcess.run(
            ["--host", "0.0.0.0", "--port", "0", "--data-dir", directory.path],
            timeout: .seconds(30)
        )
        #expect(refused.status == 64, "\(refused)")
        #expect(refused.error.contains("refusing to serve plaintext on 0.0.0.0"), "\(refused.error)")
        #expect(refused.error.contains("--insecure-plaintext"), "\(refused.error)")
        let fromEnvironment = try ServerProcess.run(
            [
                "--port", "0", "--data-dir", directory.path, "--host", "0.0.0.0", "--tls-cert",
                certificates.server.certificate,
            ],
            timeout: .seconds(30)
        )
        #expect(fromEnvironment.status == 64)
        #expect(fromEnvironment.error.contains("--tls-cert needs --tls-key"), "\(fromEnvironment.error)")
        let badFile = try ServerProcess.run(
            [
                "--port", "0", "--data-dir", directory.path, "--tls-cert", "/nonexistent.pem", "--tls-key",
                certificates.server.key,
            ],
            timeout: .seconds(30)
        )
        #expect(badFile.status == 64)
        #expect(
            badFile.error.contains("cannot serve TLS: cannot load the certificate chain from /nonexistent.pem"),
            "\(badFile.error)"
        )

        let insecure = try ServerProcess.start(extraArguments: ["--host", "0.0.0.0", "--insecure-plaintext"])
        defer {
            insecure.stop()
            insecure.removeDataDirectory()
        }
        #expect(insecure.host == "0.0.0.0")
        #expect(
            insecure.waitForLog("serving plaintext on a non-loopback address (--insecure-plaintext)"),
            "\(insecure.logTail)"
        )
        #expect(insecure.log.contains("host=0.0.0.0"), "\(insecure.logTail)")
        let secure = try ServerProcess.start(
            extraArguments: [
                "--host", "0.0.0.0", "--tls-cert", certificates.server.certificate, "--tls-key",
                certificates.server.key,
            ]
        )
        defer {
            secure.stop()
            secure.removeDataDirectory()
        }
        #expect(secure.host == "0.0.0.0")
        let connection = try secure.connectTLS(caFile: certificates.caFile)
        try connection.send(.ping(9))
        #expect(try connection.readFrame() == .pong(9))
        // The environment names the pair too.
        let fromEnv = try ServerProcess.start(
            extraArguments: ["--host", "0.0.0.0"],
            environment: [
                "STREAKD_TLS_CERT": certificates.server.certificate, "STREAKD_TLS_KEY": certificates.server.key,
            ]
        )
        defer {
            fromEnv.stop()
            fromEnv.removeDataDirectory()
        }
        let viaEnvironment = try fromEnv.connectTLS(caFile: certificates.caFile)
        try viaEnvironment.send(.ping(10))
        #expect(try viaEnvironment.readFrame() == .pong(10))
        #expect(!secure.log.contains("serving plaintext"), "\(secure.logTail)")
    }

    @Test(
        "large answers and pipelined requests cross TLS intact; SIGTERM shuts a TLS server down gracefully",
        .ownThreads
    )
    func largeAnswersAndShutdown() async throws {
        let certificates = try Self.certificates.get()
        let (server, _, _) = try Self.start(certificates.server)
        defer { server.removeDataDirectory() }
        let connection = try server.connectTLS(caFile: certificates.caFile)
        let token = try #require(server.token)
        let habit: WireCreateHabitResponse = try connection.call(
            .createHabit,
            WireCreateHabitRequest.with { $0.name = "Big" },
            token: token
        )
        let id = try #require(habit.habit?.id)
        // Twenty years of heatmap, twenty times pipelined: megabytes through the session.
        var request = WireGetHeatmapRequest()
        request.habitIds = [id]
        request.from = try CivilDate(parsing: "2010-01-01")
        request.accessibilityLabels = true
        request.to = try CivilDate(parsing: "2025-12-31")
        let ids = try (0..<20).map { _ in
            try connection.sendRequest(WireMethod.getHeatmap.rawValue, message: request.serializedBytes(), token: token)
        }
        var sizes: Set<Int> = []
        for id in ids {
            let (status, bytes) = try connection.awaitResponse(id)
            #expect(status.code == .ok, "\(status)")
            sizes.insert(bytes.count)
        }
        #expect(sizes.count == 1)
        #expect((sizes.first ?? 0) > 50_000)
        #expect(server.stop() == 0, "\(server.logTail)")
    }
}
