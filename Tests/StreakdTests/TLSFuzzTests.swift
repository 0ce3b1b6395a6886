import Foundation
import StreakCore
import StreakFraming
import StreakTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The framing corpus's random and mutated streams against a real streakd over TLS: each on its
/// own TLS connection, in random pieces (so in TLS records of every size), then half-closed.
/// The server must answer or close every one, and still serve afterwards.
@Suite("Framing fuzz over TLS")
struct TLSFuzzTests {
    static let streams = 2_000

    @Test("2,000 random and mutated frame streams inside TLS: every connection ends, the server stays up")
    func fuzzOverTLS() throws {
        let certificates = try TestCertificates()
        defer { certificates.remove() }
        let server = try ServerProcess.startTLS(certificates.server)
        defer {
            server.stop()
            server.removeDataDirectory()
        }
        var rng = SplitMix64(seed: 0x7151_F022)
        var answeredBytes = 0
        var hung = 0
        let started = ContinuousClock.now
        for n in 0..<Self.streams {
            let bytes = FrameFuzz.stream(&rng)
            let connection = try TestConnection(
                port: server.port,
                timeout: .seconds(10),
                exchangePreface: false,
                tls: (certificates.caFile, "localhost")
            )
            defer { connection.close() }
            var offset = 0
            do {
                while offset < bytes.count {
                    let end = min(bytes.count, offset + Int.random(in: 1...64, using: &rng))
                    try connection.sendRaw(Array(bytes[offset..<end]))
                    offset = end
                }
                try connection.finishSending()
            } catch {
                continue  // the server closed first (a protocol error): also an end
            }
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            do {
                while true {
                    let count = try connection.receiveRaw(&buffer)
                    if count == 0 { break }
                    answeredBytes += count
                }
            } catch let error as TestSupportError where error.description.contains("timed out") {
                hung += 1
                Issue.record("stream \(n) (\(bytes.prefix(40))...) got no end within 10 s")
            } catch {
                continue  // a reset is an end too
            }
        }
        #expect(hung == 0)
        #expect(answeredBytes > Self.streams * 8, "the server answered almost nothing")
        #expect(server.process.isRunning, "\(server.logTail)")
        let check = try server.connectTLS(caFile: certificates.caFile)
        try check.send(.ping(5))
        #expect(try check.readFrame() == .pong(5))
        print("fuzz over TLS: \(Self.streams) streams in \(ContinuousClock.now - started)")
    }

    @Test(
        "broken TLS itself: random bytes after the handshake, and mangled hellos before it, end in a log line and a close"
    )
    func brokenRecords() throws {
        let certificates = try TestCertificates()
        defer { certificates.remove() }
        let server = try ServerProcess.startTLS(certificates.server)
        defer {
            server.stop()
            server.removeDataDirectory()
        }
        var rng = SplitMix64(seed: 0xB40C_E11)
        for n in 0..<200 {
            let garbage = (0..<Int.random(in: 1...300, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let descriptor: Int32
            var keep: TestConnection?
            if n % 2 == 0 {
                // Inside an established session: bytes that are not TLS records.
                let connection = try server.connectTLS(caFile: certificates.caFile)
                descriptor = connection.descriptor
                keep = connection
            } else {
                // Before it: a handshake record header, then noise.
                descriptor = try TestSocket.connect(port: server.port, timeout: .seconds(10))
            }
            defer { if keep == nil { close(descriptor) } }
            try? TestSocket.sendAll(descriptor, n % 2 == 0 ? garbage : [22, 3, 1] + garbage)
            shutdown(descriptor, Int32(SHUT_WR))
            var buffer = [UInt8](repeating: 0, count: 4096)
            while let count = try? TestSocket.receive(descriptor, &buffer), count > 0 {}
            keep?.close()
        }
        #expect(server.waitForLog("a TLS connection failed; closing it"), "\(server.logTail)")
        #expect(server.log.contains("TLS handshake failed"), "\(server.logTail)")
        #expect(server.process.isRunning)
        let check = try server.connectTLS(caFile: certificates.caFile)
        try check.send(.ping(6))
        #expect(try check.readFrame() == .pong(6))
    }
}
