import StreakFraming
import Testing

@Suite("The decoder's buffer")
struct FrameBufferTests {
    /// A REQUEST frame whose message is `size` bytes of `byte`.
    static func request(id: UInt32, size: Int, byte: UInt8 = 7) -> [UInt8] {
        FrameEncoder.encode(
            .request(id: id, method: "/m", metadata: [], message: [UInt8](repeating: byte, count: size))
        )
    }

    /// Appends `bytes` in 64 KiB reads, as a connection does, taking frames after each.
    static func feed(_ bytes: [UInt8], to decoder: inout FrameDecoder) throws -> [Frame] {
        var frames: [Frame] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + 64 * 1024, bytes.count)
            decoder.append(contentsOf: bytes[offset..<end])
            offset = end
            while let frame = try decoder.next() { frames.append(frame) }
        }
        return frames
    }

    @Test("a large frame's buffer is given back once the frame was taken, with no further append")
    func largeFrameBufferIsReleasedWhenEmpty() throws {
        var decoder = FrameDecoder(expectsPreface: false)
        let frames = try Self.feed(Self.request(id: 1, size: 4_000_000), to: &decoder)
        guard frames.count == 1, case .request(1, _, _, let message) = frames[0] else {
            Issue.record("expected one request, got \(frames.count) frames")
            return
        }
        #expect(message.count == 4_000_000)
        // An idle connection appends nothing more: the buffer must be small already.
        #expect(decoder.bufferedByteCount == 0)
        #expect(decoder.bufferCapacity <= 256 * 1024, "the decoder keeps \(decoder.bufferCapacity) bytes")
    }

    @Test("read with the start of the next frame, a large frame's buffer shrinks to what is left")
    func largeFrameBufferShrinksToTheRest() throws {
        var decoder = FrameDecoder(expectsPreface: false)
        let next = Self.request(id: 2, size: 100_000, byte: 9)
        // The large frame and the first 10,000 bytes of the next, in one read.
        var frames = try Self.feed(Self.request(id: 1, size: 3_000_000) + next.prefix(10_000), to: &decoder)
        #expect(frames.count == 1)
        #expect(decoder.bufferedByteCount == 10_000)
        #expect(decoder.bufferCapacity <= 256 * 1024, "the decoder keeps \(decoder.bufferCapacity) bytes")
        // The rest of the next frame decodes intact.
        decoder.append(contentsOf: next.dropFirst(10_000))
        while let frame = try decoder.next() { frames.append(frame) }
        #expect(
            frames.last == .request(id: 2, method: "/m", metadata: [], message: [UInt8](repeating: 9, count: 100_000))
        )
        #expect(decoder.bufferCapacity <= 256 * 1024)
    }

    @Test("a buffer filling with one large frame is not copied on the way")
    func aFillingBufferIsNotShrunk() throws {
        var decoder = FrameDecoder(expectsPreface: false)
        let frame = Self.request(id: 1, size: 2_000_000)
        decoder.append(contentsOf: frame.prefix(1_500_000))
        #expect(try decoder.next() == nil)
        // Still holding the unfinished frame, with its room: nothing was dropped or reallocated.
        #expect(decoder.bufferedByteCount == 1_500_000)
        #expect(decoder.bufferCapacity >= 1_500_000)
        decoder.append(contentsOf: frame.dropFirst(1_500_000))
        guard case .request(1, _, _, let message) = try decoder.next() else {
            Issue.record("the frame did not decode")
            return
        }
        #expect(message.count == 2_000_000)
    }
}
