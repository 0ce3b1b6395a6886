import StreakFraming
import Testing

@Suite("Frame round trips")
struct FrameRoundTripTests {
    static let frames: [Frame] = [
        .request(id: 1, method: "/streak.v1.Streaks/Ping", metadata: [], message: []),
        .request(
            id: UInt32.max, method: "/streak.v1.Streaks/GetHeatmap",
            metadata: [MetadataEntry(key: "authorization", value: "Bearer stk_ü"), MetadataEntry(key: "deadline-ms", value: "250")],
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
