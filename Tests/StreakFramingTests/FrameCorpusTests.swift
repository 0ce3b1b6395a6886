import StreakCore
import StreakFraming
import Testing

/// Random and mutated frames and prefaces, fed in random chunks and decoded without crashing
/// (run under AddressSanitizer by scripts/test-asan.sh).
@Suite("Corpus")
struct FrameCorpusTests {
    static let corpusSize = 100_000

    static func randomString(_ rng: inout SplitMix64, maxBytes: Int) -> String {
        let alphabet: [Character] = ["a", "Z", "/", ".", "-", " ", "é", "ü", "日", "🔥"]
        let count = Int.random(in: 0...maxBytes, using: &rng)
        return String((0..<count).map { _ in alphabet.randomElement(using: &rng)! })
    }

    static func randomBytes(_ rng: inout SplitMix64, max: Int) -> [UInt8] {
        (0..<Int.random(in: 0...max, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
    }

    static func randomStatus(_ rng: inout SplitMix64) -> Status {
        Status(Status.Code(rawValue: UInt8.random(in: 0...16, using: &rng)), randomString(&rng, maxBytes: 12))
    }

    static func randomFrame(_ rng: inout SplitMix64) -> Frame {
        let id = UInt32.random(in: 1...UInt32.max, using: &rng)
        switch Int.random(in: 0..<8, using: &rng) {
        case 0:
            let metadata = (0..<Int.random(in: 0...3, using: &rng)).map { _ in
                MetadataEntry(key: "k\(Int.random(in: 0...99, using: &rng))", value: randomString(&rng, maxBytes: 8))
            }
            return .request(
                id: id,
                method: randomString(&rng, maxBytes: 20),
                metadata: metadata,
                message: randomBytes(&rng, max: 24)
            )
        case 1:
            let status = randomStatus(&rng)
            return .response(id: id, status: status, message: status.code == .ok ? randomBytes(&rng, max: 24) : [])
        case 2: return .streamMessage(id: id, message: randomBytes(&rng, max: 24))
        case 3: return .endStream(id: id, status: randomStatus(&rng))
        case 4: return .cancel(id: id)
        case 5: return .ping(rng.next())
        case 6: return .pong(rng.next())
        default: return .goAway(lastRequestID: id, status: randomStatus(&rng))
        }
    }

    /// Flips, overwrites, inserts or drops a few bytes.
    static func mutate(_ bytes: inout [UInt8], _ rng: inout SplitMix64) {
        for _ in 0..<Int.random(in: 1...3, using: &rng) where !bytes.isEmpty {
            let index = Int.random(in: 0..<bytes.count, using: &rng)
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: bytes[index] ^= 1 << UInt8.random(in: 0...7, using: &rng)
            case 1: bytes[index] = UInt8.random(in: 0...255, using: &rng)
            case 2: bytes.insert(UInt8.random(in: 0...255, using: &rng), at: index)
            case 3: bytes.remove(at: index)
            default: bytes.removeSubrange(index...)
            }
        }
    }

    /// Feeds `bytes` in random chunks (sometimes one byte at a time, sometimes all at once),
    /// taking frames after each append as a connection does, until the end or the first error.
    static func decodeInChunks(
        _ bytes: [UInt8],
        _ decoder: inout FrameDecoder,
        _ rng: inout SplitMix64
    ) throws(FramingError) -> [Frame] {
        var frames: [Frame] = []
        let largestChunk = [1, 3, 8, Int.max].randomElement(using: &rng)!
        var offset = 0
        while offset < bytes.count {
            let end = offset + Int.random(in: 1...min(bytes.count - offset, largestChunk), using: &rng)
            if Bool.random(using: &rng) {
                decoder.append(contentsOf: bytes[offset..<end])
            } else {
                bytes[offset..<end].withUnsafeBytes { decoder.append($0) }
            }
            offset = end
            while let frame = try decoder.next() { frames.append(frame) }
        }
        try decoder.finish()
        return frames
    }

    @Test("100,000 random and mutated streams, fed in random chunks, decode without crashing; intact ones round-trip")
    func corpus() {
        var rng = SplitMix64(seed: 0x5EED_F4A3)
        var decoded = 0
        var failures = 0
        var badPrefaces = 0
        for n in 0..<Self.corpusSize {
            let frame = Self.randomFrame(&rng)
            let intact = n % 4 == 0
            let expectsPreface = n % 3 == 0
            var bytes = (expectsPreface ? Preface.bytes : []) + FrameEncoder.encode(frame)
            if n % 50 == 1 {
                bytes = (expectsPreface ? Preface.bytes : []) + Self.randomBytes(&rng, max: 64)
            } else if !intact {
                // The preface is mutated too, so a wrong byte can arrive in any read.
                Self.mutate(&bytes, &rng)
            }
            // A stream that differs from the preface in its first 8 bytes must be refused as such.
            let prefaceBroken = expectsPreface && zip(bytes, Preface.bytes).contains { $0 != $1 }
            var decoder = FrameDecoder(maxFrameSize: 256, expectsPreface: expectsPreface)
            do {
                let frames = try Self.decodeInChunks(bytes, &decoder, &rng)
                decoded += frames.count
                if intact && frames != [frame] { Issue.record("\(frame) decoded as \(frames)") }
                if prefaceBroken { Issue.record("a wrong preface was accepted: \(bytes.prefix(8))") }
            } catch {
                failures += 1
                if intact { Issue.record("intact frame \(frame) failed: \(error)") }
                if error.message.isEmpty { Issue.record("an error without a message") }
                if prefaceBroken {
                    badPrefaces += 1
                    if error.code != .badPreface {
                        Issue.record("\(bytes.prefix(8)) failed with \(error), not badPreface")
                    }
                }
            }
        }
        #expect(decoded > Self.corpusSize / 4)
        #expect(failures > Self.corpusSize / 4)
        #expect(badPrefaces > Self.corpusSize / 100)
    }
}
