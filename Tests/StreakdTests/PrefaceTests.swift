import Foundation
import StreakFraming
import StreakTestSupport
import StreakWire
import Testing

/// A wrong preface that arrives in several reads is refused like one that arrives whole.
@Suite struct PrefaceTests {
    /// Everything the server sends on `connection` until it closes.
    static func bytesUntilClose(_ connection: TestConnection) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var received: [UInt8] = []
        while let count = try? TestSocket.receive(connection.descriptor, &buffer), count > 0 {
            received += buffer[0..<count]
        }
        return received
    }

    /// Wrong prefaces sent in parts with a pause between them, so that the server reads each part
    /// on its own, and the message each must be refused with.
    static let splitPrefaces: [(parts: [String], message: String)] = [
        (["S", "X"], "bad preface: expected \"STREAKD\" version 1"),
        (["STREAK", "X"], "bad preface: expected \"STREAKD\" version 1"),
        (["STREAKD", "\u{02}"], "bad preface: protocol version 2 is not supported; this side speaks version 1"),
        (
            ["G", "ET / HTTP/1.1\r\n\r\n"],
            "bad preface: this is the Streakd binary protocol, not HTTP; expected \"STREAKD\" version 1"
        ),
    ]

    @Test func splitWrongPrefaceGetsGoAwayAndTheServerStaysUp() throws {
        let server = try ServerProcess.start()
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: server.dataDirectory)
        }
        for (parts, message) in Self.splitPrefaces {
            let connection = try TestConnection(port: server.port, exchangePreface: false)
            defer { connection.close() }
            for (index, part) in parts.enumerated() {
                if index > 0 { Thread.sleep(forTimeInterval: 0.05) }
                try connection.sendRaw(Array(part.utf8))
            }
            var decoder = FrameDecoder(expectsPreface: true)
            decoder.append(contentsOf: Self.bytesUntilClose(connection))
            #expect(
                try decoder.next() == .goAway(lastRequestID: 0, status: Status(.invalidArgument, message)),
                "\(parts); log: \(server.logTail)"
            )
            #expect(try decoder.next() == nil)
            try decoder.finish()
        }
        #expect(server.process.isRunning, "log: \(server.logTail)")
        let fresh = try server.connect()
        #expect(try fresh.status(of: .ping, WirePingRequest(), token: nil).code == .ok)
    }
}
