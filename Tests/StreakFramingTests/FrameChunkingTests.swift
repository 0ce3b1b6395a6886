import StreakCore
import StreakFraming
import Testing

@Suite("Chunked input")
struct FrameChunkingTests {
    /// Decodes `bytes` fed in chunks whose sizes `chunkSize` picks.
    static func decode(_ bytes: [UInt8], chunkSize: (Int) -> Int) throws -> [Frame] {
        var decoder = FrameDecoder(expectsPreface: true)
        var frames: [Frame] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + max(1, chunkSize(bytes.count - offset)))
            if offset % 2 == 0 {
                decoder.append(contentsOf: bytes[offset..<end])
            } else {
                bytes[offset..<end].withUnsafeBytes { decoder.append($0) }
            }
            offset = end
            while let frame = try decoder.next() { frames.append(frame) }
        }
        try decoder.finish()
        #expect(decoder.bufferedByteCount == 0)
        return frames
    }

    static var stream: [UInt8] {
        var bytes = Preface.bytes
        for frame in FrameRoundTripTests.frames { FrameEncoder.encode(frame, into: &bytes) }
        return bytes
    }

    @Test("one byte at a time gives the same frames")
    func oneByteAtATime() throws {
        #expect(try Self.decode(Self.stream, chunkSize: { _ in 1 }) == FrameRoundTripTests.frames)
    }

    @Test("random chunk sizes give the same frames", arguments: [1, 2, 3, 42, 2026])
    func randomChunks(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let frames = try Self.decode(Self.stream) { left in Int.random(in: 1...min(left, 700), using: &rng) }
        #expect(frames == FrameRoundTripTests.frames)
    }

    @Test("all at once gives the same frames")
    func allAtOnce() throws {
        #expect(try Self.decode(Self.stream, chunkSize: { $0 }) == FrameRoundTripTests.frames)
    }
}
