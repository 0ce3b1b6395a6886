import Foundation
import StreakFraming
import Testing

/// Keeps the hex dump in docs/PROTOCOL.md section 3 honest: the bytes there must be
/// exactly what `FrameEncoder` produces for the exchange the section describes.
@Suite("docs/PROTOCOL.md")
struct ProtocolDocTests {
    static let token = "stk_" + String(repeating: "0123456789abcdef", count: 4)

    /// The client's side: preface, Ping (id 1), GetStreak (id 2).
    static var clientBytes: [UInt8] {
        var bytes = Preface.bytes
        FrameEncoder.encode(.request(id: 1, method: "/streak.v1.Streaks/Ping", metadata: [], message: []), into: &bytes)
        FrameEncoder.encode(
            .request(
                id: 2,
                method: "/streak.v1.Streaks/GetStreak",
                metadata: [MetadataEntry(key: MetadataEntry.authorizationKey, value: "Bearer \(token)")],
                message: [0x0A, 0x07, 0x08, 0xEA, 0x0F, 0x10, 0x0B, 0x18, 0x17]
            ),  // as_of {2026, 11, 23}
            into: &bytes
        )
        return bytes
    }

    /// The server's side: preface, RESPONSE to 2 (UNAUTHENTICATED), RESPONSE to 1 (PingResponse{serving: true}).
    static var serverBytes: [UInt8] {
        var bytes = Preface.bytes
        let unauthenticated = Status(.unauthenticated, "missing or invalid bearer token")
        FrameEncoder.encode(.response(id: 2, status: unauthenticated, message: []), into: &bytes)
        FrameEncoder.encode(.response(id: 1, status: .ok, message: [0x10, 0x01]), into: &bytes)
        return bytes
    }

    /// The bytes of the `hex` block, split by direction (`C` or `S`).
    static func documentedBytes() throws -> (client: [UInt8], server: [UInt8]) {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/PROTOCOL.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        let block = try #require(
            text.components(separatedBy: "```hex\n").dropFirst().first?
                .components(separatedBy: "```").first
        )
        var client: [UInt8] = []
        var server: [UInt8] = []
        for line in block.split(separator: "\n") {
            let columns = line.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
            try #require(columns.count >= 2, "bad line: \(line)")
            let bytes = try columns[1].split(separator: " ").map { try #require(UInt8($0, radix: 16)) }
            switch columns[0].trimmingCharacters(in: .whitespaces) {
            case "C": client += bytes
            case "S": server += bytes
            default: Issue.record("bad direction in \(line)")
            }
        }
        return (client, server)
    }

    @Test("the hex dump is what FrameEncoder writes")
    func hexDump() throws {
        let documented = try Self.documentedBytes()
        #expect(documented.client == Self.clientBytes)
        #expect(documented.server == Self.serverBytes)
    }

    @Test("the documented bytes decode to the described frames")
    func decodes() throws {
        let documented = try Self.documentedBytes()
        var server = FrameDecoder(expectsPreface: true)
        server.append(contentsOf: documented.client)
        #expect(try server.next()?.requestID == 1)
        #expect(try server.next()?.requestID == 2)
        #expect(try server.next() == nil)
        try server.finish()
    }
}

extension Frame {
    fileprivate var requestID: UInt32? {
        if case .request(let id, _, _, _) = self { return id }
        return nil
    }
}
