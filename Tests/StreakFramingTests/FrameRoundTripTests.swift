import StreakFraming
import Testing

@Suite("Frame round trips")
struct FrameRoundTripTests {
    static let frames: [Frame] = [
        .request(id: 1, method: "/streak.v1.Streaks/Ping", metadata: [], message: []),
        .request(
            id: UInt32.max,
            method: "/streak.v1.Streaks/GetHeatmap",
            metadata: [
                MetadataEntry(key: "authorization", value: "Bearer stk_ü"),
                MetadataEntry(key: "deadline-ms", value: "250"),
            ],
            message: [0x0A, 0x00, 0xFF]
        ),
        .response(id: 7, status: .ok, message: Array(repeating: 0xAB, count: 1456)),
        .response(id: 8, status: Status(.notFound, "no habit 42"), message: []),
        .streamMessage(id: 9, message: []),
        .endStream(id: 9, status: Status(.cancelled, "cancelled by the client")),
        .cancel(id: 3),
        .ping(0x0102_0304_0506_0708),
        .pong(UInt64.max),
        .goAway(lastRequestID: 12, status: Status(.unavailable, "server shutting down")),
    ]

    @Test("every frame decodes to itself", arguments: frames)
    func roundTrip(frame: Frame) throws {
        var decoder = FrameDecoder(expectsPreface: false)
        decoder.append(contentsOf: FrameEncoder.encode(frame))
        #expect(try decoder.next() == frame)
        #expect(try decoder.next() == nil)
        try decoder.finish()
    }

    @Test("a stream fed one byte at a time gives the same frames")
    func byteAtATime() throws {
        var bytes = Preface.bytes
        for frame in Self.frames { FrameEncoder.encode(frame, into: &bytes) }
        var decoder = FrameDecoder(expectsPreface: true)
        var decoded: [Frame] = []
        for byte in bytes {
            decoder.append(contentsOf: [byte])
            while let frame = try decoder.next() { decoded.append(frame) }
        }
        #expect(decoded == Self.frames)
        try decoder.finish()
    }

    @Test("a length over the limit is refused from the header alone")
    func oversize() {
        var decoder = FrameDecoder(maxFrameSize: 1024, expectsPreface: false)
        decoder.append(contentsOf: [0x00, 0x00, 0x04, 0x01, 0x01])
        #expect(throws: FramingError.self) { try decoder.next() }
    }

    @Test("an HTTP request is refused at once", arguments: ["GET / HTTP/1.1\r\n", "STREAKD\u{02}"])
    func badPreface(text: String) {
        var decoder = FrameDecoder(expectsPreface: true)
        decoder.append(contentsOf: Array(text.utf8))
        #expect(throws: FramingError.self) { try decoder.next() }
    }

    @Test("a stream that ends inside a frame is truncated")
    func truncated() throws {
        var decoder = FrameDecoder(expectsPreface: false)
        decoder.append(contentsOf: FrameEncoder.encode(.cancel(id: 1)).dropLast())
        #expect(try decoder.next() == nil)
        #expect(throws: FramingError.self) { try decoder.finish() }
    }
}

@Suite("Edge values")
struct FrameEdgeValueTests {
    static let longText = String(repeating: "é", count: 0xFFFF / 2) + "a"  // exactly 65,535 bytes
    static let manyEntries = (0..<255).map { MetadataEntry(key: String(repeating: "k", count: 255), value: "\($0)") }

    static let frames: [Frame] = [
        .request(id: 1, method: "", metadata: [], message: []),
        .request(id: UInt32.max, method: longText, metadata: manyEntries, message: Array(repeating: 0, count: 70_000)),
        .request(id: 2, method: "/日本/🔥", metadata: [MetadataEntry(key: "", value: longText)], message: [0]),
        .response(id: 0, status: Status(.ok, longText), message: []),
        .response(id: UInt32.max, status: Status(Status.Code(rawValue: 255), "ü"), message: []),
        .streamMessage(id: 0, message: Array(repeating: 0xFF, count: 65_536)),
        .endStream(id: UInt32.max, status: .ok),
        .cancel(id: 0),
        .cancel(id: UInt32.max),
        .ping(0),
        .pong(0),
        .goAway(lastRequestID: 0, status: .ok),
        .goAway(lastRequestID: UInt32.max, status: Status(.resourceExhausted, longText)),
    ]

    @Test("edge values round-trip", arguments: frames)
    func roundTrip(frame: Frame) throws {
        var decoder = FrameDecoder(maxFrameSize: 1 << 20, expectsPreface: false)
        var bytes: [UInt8] = [0xAA]  // encode appends
        FrameEncoder.encode(frame, into: &bytes)
        #expect(bytes.first == 0xAA)
        decoder.append(contentsOf: bytes.dropFirst())
        #expect(try decoder.next() == frame)
        try decoder.finish()
    }

    @Test("a REQUEST with id 0 is not encoded: the decoder would refuse it")
    func requestIDZeroTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = FrameEncoder.encode(.request(id: 0, method: "/m", metadata: [], message: []))
        }
    }

    @Test("a metadata key that is not printable ASCII is not encoded: the decoder would refuse it")
    func nonASCIIKeyTraps() async {
        await #expect(processExitsWith: .failure) {
            let entry = MetadataEntry(key: "schlüssel", value: "v")
            _ = FrameEncoder.encode(.request(id: 1, method: "/m", metadata: [entry], message: []))
        }
    }

    @Test("over-long input is cut so the frame stays valid")
    func cut() throws {
        let frame = Frame.request(
            id: 1,
            method: String(repeating: "é", count: 40_000),
            metadata: Array(repeating: MetadataEntry(key: String(repeating: "x", count: 300), value: "v"), count: 300),
            message: []
        )
        var decoder = FrameDecoder(maxFrameSize: 1 << 20, expectsPreface: false)
        decoder.append(contentsOf: FrameEncoder.encode(frame))
        guard case .request(_, let method, let metadata, _) = try decoder.next() else {
            Issue.record("not a request")
            return
        }
        #expect(method == String(repeating: "é", count: 32_767))
        #expect(metadata.count == 255)
        #expect(metadata.allSatisfy { $0.key.utf8.count == 255 })
    }
}
