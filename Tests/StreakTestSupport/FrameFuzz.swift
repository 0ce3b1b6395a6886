import StreakCore
import StreakFraming

/// Random and mutated frame streams for fuzzing a real server (the framing corpus's recipe,
/// FrameCorpusTests, aimed at a socket): mostly REQUEST, CANCEL and PING with random methods,
/// metadata and messages, sometimes a kind only servers send, a few bytes flipped, inserted,
/// dropped or cut, sometimes plain random bytes; most streams begin with the preface.
public enum FrameFuzz {
    /// One stream: what a client might send on a fresh connection.
    public static func stream(_ rng: inout SplitMix64) -> [UInt8] {
        let withPreface = Int.random(in: 0..<10, using: &rng) != 0
        var bytes = withPreface ? Preface.bytes : []
        if Int.random(in: 0..<25, using: &rng) == 0 { return bytes + randomBytes(&rng, max: 128) }
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            FrameEncoder.encode(frame(&rng), into: &bytes)
        }
        if Int.random(in: 0..<4, using: &rng) != 0 { mutate(&bytes, &rng) }
        return bytes
    }

    static func frame(_ rng: inout SplitMix64) -> Frame {
        let id = UInt32.random(in: 1...300, using: &rng)
        switch Int.random(in: 0..<10, using: &rng) {
        case 0...4:
            let methods = [
                "/streak.v1.Streaks/Ping", "/streak.v1.Streaks/ListHabits", "/streak.v1.Streaks/GetHeatmap",
                "/streak.v1.Streaks/Watch", "/streak.v1.Streaks/Nope", randomString(&rng, maxBytes: 20),
            ]
            var metadata = (0..<Int.random(in: 0...2, using: &rng)).map { _ in
                MetadataEntry(key: "k\(Int.random(in: 0...9, using: &rng))", value: randomString(&rng, maxBytes: 8))
            }
            if Bool.random(using: &rng) {
                metadata.append(
                    MetadataEntry(key: MetadataEntry.deadlineKey, value: "\(Int.random(in: 0...50, using: &rng))")
                )
            }
            return .request(
                id: id,
                method: methods.randomElement(using: &rng)!,
                metadata: metadata,
                message: randomBytes(&rng, max: 24)
            )
        case 5: return .cancel(id: id)
        case 6: return .ping(rng.next())
        case 7: return .pong(rng.next())
        case 8: return .response(id: id, status: Status(.ok, ""), message: randomBytes(&rng, max: 8))
        default: return .goAway(lastRequestID: id, status: Status(.unavailable, randomString(&rng, maxBytes: 8)))
        }
    }

    static func randomString(_ rng: inout SplitMix64, maxBytes: Int) -> String {
        let alphabet: [Character] = ["a", "Z", "/", ".", "-", " ", "é", "日", "🔥"]
        return String((0..<Int.random(in: 0...maxBytes, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
    }

    static func randomBytes(_ rng: inout SplitMix64, max: Int) -> [UInt8] {
        (0..<Int.random(in: 0...max, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
    }

    /// Flips, overwrites, inserts or drops a few bytes, or cuts the stream.
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
}
