import StreakFraming
import Testing

/// A connection's decoder hands a request's long strings (its method, its `authorization` value)
/// back from the last few it decoded when the bytes are the same, instead of allocating them again.
@Suite("Frame string reuse")
struct FrameStringReuseTests {
    static let method = "/streak.v1.Streaks/RecordCompletion"
    static let bearer = "Bearer stk_" + String(repeating: "ab", count: 32)

    static func request(
        _ id: UInt32,
        method: String = FrameStringReuseTests.method,
        bearer: String = FrameStringReuseTests.bearer
    ) -> Frame {
        .request(
            id: id,
            method: method,
            metadata: [MetadataEntry(key: "authorization", value: bearer)],
            message: [0x08, UInt8(id & 0x7F)]
        )
    }

    /// Where a long string's UTF-8 bytes live (the same address: the same storage).
    static func storage(_ text: String) -> UnsafeRawPointer? {
        text.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
    }

    static func decode(_ frames: [Frame], into decoder: inout FrameDecoder) throws -> [Frame] {
        var bytes: [UInt8] = []
        for frame in frames { FrameEncoder.encode(frame, into: &bytes) }
        decoder.append(contentsOf: bytes)
        var decoded: [Frame] = []
        while let frame = try decoder.next() { decoded.append(frame) }
        return decoded
    }

    static func parts(_ frame: Frame) -> (method: String, bearer: String)? {
        guard case .request(_, let method, let metadata, _) = frame, let entry = metadata.first else { return nil }
        return (method, entry.value)
    }

    @Test("a repeated method and authorization value decode to the same strings, sharing storage")
    func repeatedStringsAreShared() throws {
        var decoder = FrameDecoder(expectsPreface: false)
        let sent = (1...3).map { Self.request($0) }
        let decoded = try Self.decode(sent, into: &decoder)
        #expect(decoded == sent)
        let parts = decoded.compactMap(Self.parts)
        #expect(parts.count == 3)
        for part in parts.dropFirst() {
            #expect(Self.storage(part.method) == Self.storage(parts[0].method))
            #expect(Self.storage(part.bearer) == Self.storage(parts[0].bearer))
        }
        #expect(Self.storage(parts[0].method) != nil, "a long string has storage of its own")
        // Across reads of the socket too: the strings outlive the bytes they came from.
        let later = try Self.decode([Self.request(9)], into: &decoder).compactMap(Self.parts)
        #expect(later.count == 1 && Self.storage(later[0].bearer) == Self.storage(parts[0].bearer))
    }

    @Test(
        "a string of the same length with other bytes is not taken for a kept one",
        arguments: [
            "Bearer stk_" + String(repeating: "ab", count: 31) + "ac",
            "Bearer stk_" + String(repeating: "ab", count: 31) + "ü",
            "bearer stk_" + String(repeating: "ab", count: 32),
        ]
    )
    func differentBytesDecodeExactly(other: String) throws {
        var decoder = FrameDecoder(expectsPreface: false)
        let sent = [Self.request(1), Self.request(2, bearer: other), Self.request(3), Self.request(4, bearer: other)]
        #expect(try Self.decode(sent, into: &decoder) == sent)
    }

    @Test("more distinct strings than are kept still decode exactly, in any order")
    func manyDistinctStrings() throws {
        var decoder = FrameDecoder(expectsPreface: false)
        let methods = (0..<9).map { "/streak.v1.Streaks/Method\($0)WithALongName" }
        var sent: [Frame] = []
        for round in 0..<4 {
            for (index, method) in methods.enumerated() {
                sent.append(
                    Self.request(UInt32(round * 100 + index + 1), method: method, bearer: Self.bearer + "\(index % 3)")
                )
            }
            sent.append(Self.request(UInt32(round * 100 + 50), method: methods[round]))
        }
        #expect(try Self.decode(sent, into: &decoder) == sent)
    }

    @Test("short strings and non-ASCII text decode exactly when they repeat")
    func shortAndNonASCII() throws {
        var decoder = FrameDecoder(expectsPreface: false)
        let accented = "Bearer stk_\u{00FC}" + String(repeating: "é", count: 20)
        let sent = [
            Self.request(1, method: "/a", bearer: "Bearer x"),
            Self.request(2, method: "/a", bearer: "Bearer x"),
            Self.request(3, bearer: accented),
            Self.request(4, bearer: accented),
        ]
        let decoded = try Self.decode(sent, into: &decoder)
        #expect(decoded == sent)
        let parts = decoded.compactMap(Self.parts)
        #expect(parts.count == 4 && Self.storage(parts[2].bearer) == Self.storage(parts[3].bearer))
    }
}
