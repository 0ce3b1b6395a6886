import StreakFraming
import Testing

/// A connection's decoder hands a request's long strings (its method, its `authorization` value)
/// back from the last few it decoded when the bytes are the same, and the last request's metadata
/// array when every entry is equal, instead of allocating them again.
@Suite("Repeated request parts")
struct RepeatedRequestPartsTests {
    static let method = "/streak.v1.Streaks/RecordCompletion"
    static let bearer = "Bearer stk_" + String(repeating: "ab", count: 32)

    static func request(
        _ id: UInt32,
        method: String = RepeatedRequestPartsTests.method,
        bearer: String = RepeatedRequestPartsTests.bearer
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

    static func metadata(_ frame: Frame) -> [MetadataEntry] {
        guard case .request(_, _, let metadata, _) = frame else { return [] }
        return metadata
    }

    /// Where an array's elements live (the same address: the same array storage).
    static func storage(_ entries: [MetadataEntry]) -> UnsafeRawPointer? {
        entries.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
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

    @Test("a kept string's bytes are compared at every position: one byte changed anywhere is another string")
    func everyPositionCompared() throws {
        var decoder = FrameDecoder(expectsPreface: false)
        var sent = [Self.request(1)]
        let bytes = Array(Self.bearer.utf8)
        for position in bytes.indices {
            var changed = bytes
            changed[position] = changed[position] == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x")
            sent.append(Self.request(UInt32(sent.count + 1), bearer: String(decoding: changed, as: UTF8.self)))
            sent.append(Self.request(UInt32(sent.count + 1)))
        }
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

    @Test("equal metadata shares the last request's array; metadata that differs anywhere gets its own")
    func metadataArrays() throws {
        var decoder = FrameDecoder(expectsPreface: false)
        let auth = MetadataEntry(key: "authorization", value: Self.bearer)
        let deadline = MetadataEntry(key: "deadline-ms", value: "250")
        func request(_ id: UInt32, _ metadata: [MetadataEntry]) -> Frame {
            .request(id: id, method: Self.method, metadata: metadata, message: [])
        }
        let sets: [[MetadataEntry]] = [
            [auth, deadline], [auth, deadline], [auth, MetadataEntry(key: "deadline-ms", value: "251")],
            [auth, deadline], [MetadataEntry(key: "authorization", value: "Bearer x"), deadline], [auth],
            [auth], [], [auth, deadline], [auth, deadline, deadline],
        ]
        let sent = sets.enumerated().map { request(UInt32($0.offset + 1), $0.element) }
        let decoded = try Self.decode(sent, into: &decoder)
        #expect(decoded == sent)
        let arrays = decoded.map(Self.metadata)
        #expect(Self.storage(arrays[1]) == Self.storage(arrays[0]), "the same metadata again")
        #expect(Self.storage(arrays[6]) == Self.storage(arrays[5]), "the same metadata again")
        for (index, shared) in [false, true, false, false, false, false, true, false, false, false].enumerated()
        where index > 0 && !shared && !arrays[index].isEmpty {
            #expect(Self.storage(arrays[index]) != Self.storage(arrays[index - 1]), "request \(index + 1)")
        }
    }

    @Test("long strings and large metadata are not kept, and still decode exactly")
    func largePartsAreNotKept() throws {
        var decoder = FrameDecoder(expectsPreface: false)
        let long = "Bearer " + String(repeating: "t", count: 300)
        let many = (0..<5).map { MetadataEntry(key: "k\($0)", value: "value number \($0)") }
        let sent = [
            Self.request(1, bearer: long), Self.request(2, bearer: long),
            .request(id: 3, method: Self.method, metadata: many, message: []),
            .request(id: 4, method: Self.method, metadata: many, message: []),
        ]
        let decoded = try Self.decode(sent, into: &decoder)
        #expect(decoded == sent)
        let parts = decoded.compactMap(Self.parts)
        #expect(Self.storage(parts[1].bearer) != Self.storage(parts[0].bearer), "a 307-byte value is not kept")
        #expect(Self.storage(Self.metadata(decoded[3])) != Self.storage(Self.metadata(decoded[2])), "five entries")
        #expect(Self.storage(parts[1].method) == Self.storage(parts[0].method), "the method still is")
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

@Suite("Strings compared byte for byte")
struct SameBytesTests {
    @Test(
        "the same bytes, whatever their length; a difference in any byte; canonically equal text",
        arguments: [
            ("", "", true),
            ("a", "a", true),
            ("a", "b", false),
            ("abcdefgh", "abcdefgh", true),
            ("abcdefgh", "abcdefgx", false),
            ("abcdefghi", "abcdefghj", false),
            ("xbcdefghijklmnopq", "abcdefghijklmnopq", false),
            ("abcdefghijklmnopq", "abcdefghijklmnopq", true),
            ("abcdefghijklmnopq", "abcdefghijklmnopr", false),
            ("abc", "abcd", false),
            ("Bearer K", "Bearer \u{212A}", false),
            ("caf\u{E9}", "cafe\u{301}", false),
            ("caf\u{E9}", "caf\u{E9}", true),
        ]
    )
    func sameBytes(left: String, right: String, same: Bool) {
        #expect(left.hasSameBytes(as: right) == same)
        #expect(right.hasSameBytes(as: left) == same)
        #expect(left.hasSameBytes(as: right) == (Array(left.utf8) == Array(right.utf8)))
    }
}
