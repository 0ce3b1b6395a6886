import StreakCore
import StreakFraming
import Testing

@Suite("Framing errors")
struct FrameErrorTests {
    /// The error decoding `bytes` gives (after the preface when `preface` is true).
    static func error(_ bytes: [UInt8], preface: Bool = false, maxFrameSize: Int = 1024) -> FramingError? {
        var decoder = FrameDecoder(maxFrameSize: maxFrameSize, expectsPreface: preface)
        decoder.append(contentsOf: bytes)
        do {
            while try decoder.next() != nil {}
            try decoder.finish()
            return nil
        } catch {
            return error
        }
    }

    @Test("a length over the limit is refused at its fourth byte; the body is never buffered")
    func oversize() throws {
        var decoder = FrameDecoder(maxFrameSize: 1024, expectsPreface: true)
        let header = Preface.bytes + [0x00, 0x10, 0x00, 0x00]  // a 1 MiB frame
        for byte in header.dropLast() {
            decoder.append(contentsOf: [byte])
            #expect(try decoder.next() == nil)
        }
        decoder.append(contentsOf: header.suffix(1))
        #expect(throws: FramingError(.frameTooLarge, "frame of 1048576 bytes exceeds the limit of 1024 bytes")) {
            try decoder.next()
        }
        #expect(decoder.bufferedByteCount == 4)
        // A peer that goes on sending the body does not make the decoder hold it.
        decoder.append(contentsOf: [UInt8](repeating: 0xAB, count: 1 << 20))
        #expect(decoder.bufferedByteCount == 4)
        #expect(throws: FramingError.self) { try decoder.next() }
        let error = Self.error([0xFF, 0xFF, 0xFF, 0xFF])
        #expect(error?.code == .frameTooLarge)
        #expect(error?.status.code == .resourceExhausted)
    }

    @Test("a length of exactly the limit is accepted")
    func atLimit() throws {
        var decoder = FrameDecoder(maxFrameSize: 105, expectsPreface: false)
        decoder.append(contentsOf: FrameEncoder.encode(.streamMessage(id: 1, message: Array(repeating: 7, count: 100))))
        #expect(try decoder.next() == .streamMessage(id: 1, message: Array(repeating: 7, count: 100)))
    }

    @Test("lengths under 5 are refused", arguments: 0..<5)
    func tooShort(length: UInt8) {
        let error = Self.error([0, 0, 0, length])
        #expect(error?.code == .frameTooShort)
        #expect(error?.status.code == .invalidArgument)
    }

    @Test("unknown kinds are refused", arguments: [0, 9, 0x80, 0xFF] as [UInt8])
    func unknownKind(kind: UInt8) {
        #expect(Self.error([0, 0, 0, 5, kind, 0, 0, 0, 1])?.code == .unknownKind)
    }

    @Test(
        "wrong prefaces are refused with a clear message",
        arguments: [
            ("GET / HTTP/1.1\r\nHost: x\r\n\r\n", "not HTTP"),
            ("PRI * HTTP/2.0\r\n", "not HTTP"),
            ("STREAKD\u{02}", "version 2"),
            ("STREAKD\u{00}", "version 0"),
            ("streakd\u{01}", "expected \"STREAKD\""),
        ]
    )
    func badPreface(text: String, hint: String) {
        let error = Self.error(Array(text.utf8), preface: true)
        #expect(error?.code == .badPreface)
        #expect(error?.message.contains(hint) == true, "\(error?.message ?? "no error")")
        #expect(error?.status.code == .invalidArgument)
    }

    @Test("a wrong first byte is an error at once")
    func firstByte() {
        var decoder = FrameDecoder(expectsPreface: true)
        decoder.append(contentsOf: [0x47])
        #expect(throws: FramingError.self) { try decoder.next() }
    }

    @Test("a partial preface waits, then is truncated at end of stream")
    func partialPreface() throws {
        var decoder = FrameDecoder(expectsPreface: true)
        decoder.append(contentsOf: Preface.bytes.prefix(5))
        #expect(try decoder.next() == nil)
        #expect(throws: FramingError.self) { try decoder.finish() }
        var empty = FrameDecoder(expectsPreface: true)
        #expect(try empty.next() == nil)
        try empty.finish()
    }

    @Test("a stream that ends inside a frame is truncated", arguments: 1..<FrameEncoder.encode(.ping(42)).count)
    func truncated(cut: Int) throws {
        let bytes = FrameEncoder.encode(.ping(42))
        var decoder = FrameDecoder(expectsPreface: false)
        decoder.append(contentsOf: bytes.prefix(cut))
        #expect(try decoder.next() == nil)
        do {
            try decoder.finish()
            Issue.record("no error")
        } catch {
            #expect(error.code == .truncated)
        }
    }

    static let malformedBodies: [(String, [UInt8])] = [
        ("request id 0", [1, 0, 0, 0, 0, 0, 0, 0]),
        ("method runs past the end", [1, 0, 0, 0, 1, 0, 9, 0x2F]),
        ("no metadata count", [1, 0, 0, 0, 1, 0, 1, 0x2F]),
        ("metadata entries missing", [1, 0, 0, 0, 1, 0, 0, 2]),
        ("metadata key not ASCII", [1, 0, 0, 0, 1, 0, 0, 1, 1, 0x0A, 0, 0]),
        ("method not UTF-8", [1, 0, 0, 0, 1, 0, 1, 0xFF, 0]),
        ("method with an overlong encoding", [1, 0, 0, 0, 1, 0, 3, 0x2F, 0xC0, 0xAF, 0]),
        ("method with a lone continuation byte", [1, 0, 0, 0, 1, 0, 2, 0x2F, 0x80, 0]),
        ("method ends inside a character", [1, 0, 0, 0, 1, 0, 3, 0x2F, 0xE2, 0x82, 0]),
        ("method with an encoded surrogate", [1, 0, 0, 0, 1, 0, 4, 0x2F, 0xED, 0xA0, 0x80, 0]),
        ("metadata value not UTF-8", [1, 0, 0, 0, 1, 0, 1, 0x2F, 1, 1, 0x6B, 0, 2, 0x61, 0xFE]),
        ("status message not UTF-8", [2, 0, 0, 0, 1, 5, 0, 2, 0xC3, 0x28]),
        ("status missing", [2, 0, 0, 0, 1]),
        ("error response with a message", [2, 0, 0, 0, 1, 5, 0, 0, 0x0A]),
        ("end stream with trailing bytes", [4, 0, 0, 0, 1, 0, 0, 0, 1]),
        ("cancel with a body", [5, 0, 0, 0, 1, 0]),
        ("ping too short", [6, 0, 0, 0, 0, 1, 2, 3]),
        ("ping too long", [6, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]),
        ("ping with a request id", [6, 0, 0, 0, 1, 1, 2, 3, 4, 5, 6, 7, 8]),
        ("pong with a request id", [7, 0, 0, 0, 1, 1, 2, 3, 4, 5, 6, 7, 8]),
        ("goaway with a request id", [8, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]),
        ("goaway without a status", [8, 0, 0, 0, 0, 0, 0, 0, 1]),
    ]

    @Test("malformed bodies are refused", arguments: malformedBodies)
    func malformed(name: String, body: [UInt8]) {
        let bytes = [0, 0, UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
        let error = Self.error(bytes)
        #expect(error?.code == .malformed, "\(name): \(String(describing: error))")
        #expect(error?.message.isEmpty == false)
    }

    @Test("non-ASCII text in a method, a metadata value and a status message decodes exactly")
    func nonASCIIText() throws {
        let frames: [Frame] = [
            .request(
                id: 7,
                method: "/streak.v1/Ünïcödé-😀",
                metadata: [MetadataEntry(key: "k", value: "é漢字")],
                message: [1]
            ),
            .response(id: 7, status: Status(.notFound, "no habit „Läufe“ 🏃"), message: []),
        ]
        for frame in frames {
            var decoder = FrameDecoder(expectsPreface: false)
            decoder.append(contentsOf: FrameEncoder.encode(frame))
            #expect(try decoder.next() == frame)
        }
    }

    @Test("after an error the decoder keeps failing")
    func sticky() {
        var decoder = FrameDecoder(expectsPreface: false)
        decoder.append(contentsOf: [0, 0, 0, 1])
        #expect(throws: FramingError.self) { try decoder.next() }
        decoder.append(contentsOf: FrameEncoder.encode(.cancel(id: 1)))
        #expect(throws: FramingError.self) { try decoder.next() }
        #expect(throws: FramingError.self) { try decoder.finish() }
    }

    @Test("random garbage gives clear errors, never a frame soup", arguments: 0..<20 as Range<UInt64>)
    func garbage(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let bytes = (0..<Int.random(in: 1...4096, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let error = Self.error(bytes, preface: seed % 2 == 0, maxFrameSize: 4096)
        if let error {
            #expect(!error.message.isEmpty)
        }
    }
}
