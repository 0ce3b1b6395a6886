import StreakCore
import StreakFraming
import Testing

/// A wrong preface is refused at its first wrong byte with a clear message, however the peer's
/// bytes are split across reads (consumed preface bytes are compacted away between appends).
@Suite("Split prefaces")
struct FramePrefaceTests {
    static let generic = "bad preface: expected \"STREAKD\" version 1"
    static let http = "bad preface: this is the Streakd binary protocol, not HTTP; expected \"STREAKD\" version 1"

    /// Wrong prefaces and the exact message each must be refused with.
    static let badPrefaces: [(text: String, message: String)] = [
        ("SX", generic),
        ("STX", generic),
        ("STREAKX\u{01}", generic),
        ("STREAKd\u{01}", generic),
        ("streakd\u{01}", generic),
        ("SGET / HTTP/1.1\r\n", generic),
        ("STREAKD\u{02}", "bad preface: protocol version 2 is not supported; this side speaks version 1"),
        ("STREAKD\u{00}", "bad preface: protocol version 0 is not supported; this side speaks version 1"),
        ("GET / HTTP/1.1\r\nHost: x\r\n\r\n", http),
        ("POST /x HTTP/1.1\r\n", http),
        ("PUT /x HTTP/1.1\r\n", http),
        ("HEAD / HTTP/1.0\r\n", http),
        ("PRI * HTTP/2.0\r\n", http),
    ]

    /// Feeds `bytes` in chunks of the given sizes, taking frames after each append as a
    /// connection does, and stops at the first error.
    /// - Returns: the error and how many bytes had been fed when it was thrown.
    static func firstError(_ bytes: [UInt8], chunkSizes: [Int]) -> (error: FramingError, fed: Int)? {
        var decoder = FrameDecoder(expectsPreface: true)
        var offset = 0
        for (index, size) in chunkSizes.enumerated() where offset < bytes.count {
            let chunk = bytes[offset..<min(bytes.count, offset + size)]
            if index % 2 == 0 {
                decoder.append(contentsOf: chunk)
            } else {
                chunk.withUnsafeBytes { decoder.append($0) }
            }
            offset += chunk.count
            do {
                while try decoder.next() != nil {}
            } catch {
                return (error, offset)
            }
        }
        return nil
    }

    /// Checks that `bytes` fed in `chunkSizes` is refused with `message` in the chunk that holds
    /// the first wrong byte.
    static func expectRefused(_ text: String, _ message: String, chunkSizes: [Int]) {
        let bytes = Array(text.utf8)
        guard let wrongByte = zip(bytes, Preface.bytes).enumerated().first(where: { $1.0 != $1.1 })?.offset else {
            Issue.record("\(text.debugDescription) is not a wrong preface")
            return
        }
        guard let (error, fed) = firstError(bytes, chunkSizes: chunkSizes) else {
            Issue.record("\(text.debugDescription) in chunks \(chunkSizes) was not refused")
            return
        }
        #expect(error.code == .badPreface, "\(text.debugDescription) in chunks \(chunkSizes)")
        #expect(error.message == message, "\(text.debugDescription) in chunks \(chunkSizes)")
        #expect(error.status.code == .invalidArgument)
        var chunkEnd = 0
        for size in chunkSizes where chunkEnd <= wrongByte { chunkEnd += size }
        #expect(fed == min(bytes.count, chunkEnd), "\(text.debugDescription) refused late, in chunks \(chunkSizes)")
    }

    @Test("a wrong preface fed one byte at a time is refused at its wrong byte", arguments: badPrefaces)
    func byteByByte(text: String, message: String) {
        Self.expectRefused(text, message, chunkSizes: Array(repeating: 1, count: text.utf8.count))
    }

    @Test("a wrong preface split in two at every position is refused", arguments: badPrefaces)
    func everySplit(text: String, message: String) {
        let count = text.utf8.count
        for cut in 1..<count {
            Self.expectRefused(text, message, chunkSizes: [cut, count - cut])
        }
    }

    @Test("a wrong preface in random chunks is refused", arguments: [1, 2, 3, 42, 2026] as [UInt64])
    func randomChunks(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        for (text, message) in Self.badPrefaces {
            for _ in 0..<20 {
                var left = text.utf8.count
                var sizes: [Int] = []
                while left > 0 {
                    sizes.append(Int.random(in: 1...min(left, 4), using: &rng))
                    left -= sizes.last!
                }
                Self.expectRefused(text, message, chunkSizes: sizes)
            }
        }
    }

    @Test("a good preface split anywhere is accepted", arguments: 1..<Preface.bytes.count)
    func goodPrefaceSplit(cut: Int) throws {
        let bytes = Preface.bytes + FrameEncoder.encode(.ping(7))
        var decoder = FrameDecoder(expectsPreface: true)
        decoder.append(contentsOf: bytes.prefix(cut))
        #expect(try decoder.next() == nil)
        #expect(!decoder.hasReceivedPreface)
        decoder.append(contentsOf: bytes.dropFirst(cut))
        #expect(try decoder.next() == .ping(7))
        #expect(decoder.hasReceivedPreface)
        try decoder.finish()
    }
}
