import Foundation
import StreakTLS
import StreakTestSupport
import Testing

/// Two sessions, a client and a server, joined in memory: every byte one writes the test hands
/// to the other, as the event loops and the client do with sockets. Run under AddressSanitizer
/// by scripts/test-asan.sh, so the shim's buffers are checked too.
@Suite("TLS sessions in memory")
struct MemorySessionTests {
    static let certificates = Result { try TestCertificates() }

    /// Moves ciphertext both ways until neither side has any left.
    static func shuttle(_ client: TLSSession, _ server: TLSSession) {
        while client.pendingOutput > 0 || server.pendingOutput > 0 {
            let toServer = client.takeOutput()
            toServer.withUnsafeBytes { _ = server.feed($0) }
            _ = server.handshake()
            let toClient = server.takeOutput()
            toClient.withUnsafeBytes { _ = client.feed($0) }
            _ = client.handshake()
        }
    }

    /// Runs the handshake. - Returns: how each side ended.
    static func connect(
        trusting caFile: String,
        serverPair: TestCertificates.Pair,
        name: String = "localhost"
    ) throws -> (client: TLSSession, server: TLSSession, TLSSession.HandshakeResult, TLSSession.HandshakeResult) {
        let serverContext = try TLSContext.server(certificateFile: serverPair.certificate, keyFile: serverPair.key)
        let client = try TLSSession(client: try TLSContext.client(caFile: caFile), serverName: name)
        let server = try #require(TLSSession(server: serverContext))
        var clientState = client.handshake()
        var serverState = TLSSession.HandshakeResult.wantRead
        for _ in 0..<10 where clientState == .wantRead || serverState == .wantRead {
            let toServer = client.takeOutput()
            toServer.withUnsafeBytes { _ = server.feed($0) }
            serverState = server.handshake()
            let toClient = server.takeOutput()
            toClient.withUnsafeBytes { _ = client.feed($0) }
            clientState = client.handshake()
            if clientState == .failed {
                // The client's alert tells the server why.
                let alert = client.takeOutput()
                alert.withUnsafeBytes { _ = server.feed($0) }
                serverState = server.handshake()
                break
            }
        }
        return (client, server, clientState, serverState)
    }

    @Test("a verified handshake, then frames both ways in pieces of every size")
    func verifiedExchange() throws {
        let certificates = try Self.certificates.get()
        let (client, server, clientState, serverState) = try Self.connect(
            trusting: certificates.caFile,
            serverPair: certificates.server
        )
        #expect(clientState == .done)
        #expect(serverState == .done)
        #expect(client.protocolVersion == "TLSv1.3")
        #expect(server.applicationProtocol == "streakd/1")
        #expect(client.applicationProtocol == "streakd/1")

        var random = SystemRandomNumberGenerator()
        for size in [1, 7, 8, 16_383, 16_384, 16_385, 200_000] {
            let message = (0..<size).map { _ in UInt8.random(in: 0...255, using: &random) }
            #expect(message.withUnsafeBytes { client.write($0) })
            Self.shuttle(client, server)
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let result = buffer.withUnsafeMutableBytes { server.read(into: $0) }
                guard case .bytes(let count) = result else {
                    #expect(result == .wantRead)
                    break
                }
                received += buffer[0..<count]
            }
            #expect(received == message, "size \(size)")
            #expect(!server.hasBufferedInput)
        }
        // And back, then a close_notify reads as the end.
        let answer: [UInt8] = Array("STREAKD\u{1}".utf8)
        #expect(answer.withUnsafeBytes { server.write($0) })
        server.closeNotify()
        Self.shuttle(client, server)
        var buffer = [UInt8](repeating: 0, count: 64)
        let first = buffer.withUnsafeMutableBytes { client.read(into: $0) }
        #expect(first == .bytes(8))
        #expect(Array(buffer[0..<8]) == answer)
        #expect(buffer.withUnsafeMutableBytes { client.read(into: $0) } == .closed)
    }

    @Test("a wrong host name, an expired certificate and an unknown CA fail with their reason on both sides")
    func verificationFailures() throws {
        let certificates = try Self.certificates.get()
        let cases: [(TestCertificates.Pair, String, TLSError.VerifyFailure, String, String)] = [
            (certificates.wrongHost, "localhost", .hostnameMismatch, "hostname mismatch", "bad certificate"),
            (certificates.server, "other.example", .hostnameMismatch, "hostname mismatch", "bad certificate"),
            (certificates.expired, "localhost", .expired, "certificate has expired", "certificate expired"),
            (certificates.unknownAuthority, "localhost", .unknownAuthority, "unknown CA", "unknown ca"),
        ]
        for (pair, name, failure, clientText, serverText) in cases {
            let (client, server, clientState, serverState) = try Self.connect(
                trusting: certificates.caFile,
                serverPair: pair,
                name: name
            )
            #expect(clientState == .failed)
            #expect(serverState == .failed)
            #expect(client.failure.verifyFailure == failure)
            #expect(
                client.failure.description.hasPrefix("certificate verify failed: \(clientText)"),
                "\(client.failure)"
            )
            #expect(server.failure.description.contains(serverText), "\(server.failure)")
        }
    }

    @Test("an IP address is checked against the certificate's IP addresses")
    func addressCheck() throws {
        let certificates = try Self.certificates.get()
        let good = try Self.connect(trusting: certificates.caFile, serverPair: certificates.server, name: "127.0.0.1")
        #expect(good.2 == .done)
        let bad = try Self.connect(trusting: certificates.caFile, serverPair: certificates.server, name: "127.0.0.2")
        #expect(bad.2 == .failed)
        #expect(bad.0.failure.verifyFailure == .hostnameMismatch)
    }

    @Test("plaintext fed to a server session fails the handshake with OpenSSL's reason")
    func plaintextToServer() throws {
        let certificates = try Self.certificates.get()
        let context = try TLSContext.server(
            certificateFile: certificates.server.certificate,
            keyFile: certificates.server.key
        )
        let server = try #require(TLSSession(server: context))
        let preface: [UInt8] = Array("STREAKD\u{1}".utf8) + [UInt8](repeating: 0, count: 64)
        preface.withUnsafeBytes { _ = server.feed($0) }
        #expect(server.handshake() == .failed)
        #expect(!server.failure.description.isEmpty)
    }

    @Test("files that do not load name the file and the reason; a key of another certificate is refused")
    func loadingFailures() throws {
        let certificates = try Self.certificates.get()
        #expect(throws: TLSError.self) {
            try TLSContext.server(certificateFile: "/nonexistent/cert.pem", keyFile: certificates.server.key)
        }
        do {
            _ = try TLSContext.server(certificateFile: "/nonexistent/cert.pem", keyFile: certificates.server.key)
        } catch {
            #expect(error.description.contains("/nonexistent/cert.pem"), "\(error)")
            #expect(error.description.contains("No such file"), "\(error)")
        }
        do {
            _ = try TLSContext.server(
                certificateFile: certificates.server.certificate,
                keyFile: certificates.expired.key
            )
            Issue.record("a mismatched key was accepted")
        } catch {
            #expect(error.description.contains("does not belong"), "\(error)")
        }
        do {
            _ = try TLSContext.server(certificateFile: certificates.server.key, keyFile: certificates.server.key)
            Issue.record("a key as the certificate was accepted")
        } catch {
            #expect(error.description.contains(certificates.server.key), "\(error)")
        }
        let context = try TLSContext.server(
            certificateFile: certificates.expired.certificate,
            keyFile: certificates.expired.key
        )
        #expect(context.isExpired)
        #expect(context.summary.contains("CN=localhost"), "\(context.summary)")
        #expect(context.summary.contains("valid until"), "\(context.summary)")
        #expect(
            try !TLSContext.server(certificateFile: certificates.server.certificate, keyFile: certificates.server.key)
                .isExpired
        )
    }

    @Test("a reload keeps the old context when the new pair does not load")
    func reload() throws {
        let certificates = try Self.certificates.get()
        let folder = certificates.directory.appendingPathComponent("reload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let certificate = folder.appendingPathComponent("cert.pem").path
        let key = folder.appendingPathComponent("key.pem").path
        try TestCertificates.install(certificates.server, certificate: certificate, key: key)
        let credentials = try TLSServerCredentials(certificateFile: certificate, keyFile: key)
        let first = credentials.context
        try "not a key".write(toFile: key, atomically: true, encoding: .utf8)
        #expect(throws: TLSError.self) { try credentials.reload() }
        #expect(credentials.context === first)
        try TestCertificates.install(certificates.reissued, certificate: certificate, key: key)
        let second = try credentials.reload()
        #expect(credentials.context === second)
        #expect(second.summary.contains("Other CA"), "\(second.summary)")
    }
}
