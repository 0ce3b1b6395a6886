import Testing

@testable import StreakWire

/// The decoder's arena bounds the memory it really takes, not only the bytes it hands out.
@Suite struct WireArenaTests {
    /// Budgets, first chunks and the request sizes that are cycled through until the budget is spent.
    static let patterns: [(name: String, limit: Int, firstChunk: Int, sizes: [Int])] = [
        ("small structs", 1 << 20, 512, [40]),
        ("structs and arrays", 1 << 20, 512, [24, 3000, 40, 70_000, 8]),
        ("one large array", 64 * 1024, 512, [60_000, 8]),
        ("budget in the first chunk", 4096, 4096, [40]),
        ("odd sizes", 300_000, 1024, [1, 13, 1500, 9, 25_000]),
    ]

    @Test(arguments: patterns)
    func reservedMemoryStaysWithinTheLimit(name: String, limit: Int, firstChunk: Int, sizes: [Int]) {
        let arena = WireArena(limit: limit, firstChunk: firstChunk)
        var handedOut = 0
        for size in sizes.cycled() {
            guard arena.allocate(byteCount: size) != nil else { break }
            handedOut += (size + 7) & ~7
        }
        let (exceeded, reserved) = (arena.exceeded, arena.reservedBytes)
        #expect(exceeded)
        #expect(reserved <= limit, "\(name): \(reserved) bytes reserved for \(handedOut)")
        #expect(handedOut >= limit / 2, "\(name): only \(handedOut) of \(limit) bytes could be used")
    }

    @Test func encodingArenaStillGrowsWithoutBound() {
        let arena = WireArena(limit: .max, firstChunk: 4096)
        var allocated = 0
        for _ in 0..<1000 where arena.allocate(byteCount: 10_000) != nil { allocated += 1 }
        let (exceeded, reserved) = (arena.exceeded, arena.reservedBytes)
        #expect(allocated == 1000)
        #expect(reserved >= 10_000_000)
        #expect(!exceeded)
    }
}

extension Array {
    /// The elements over and over; the loop that reads it must stop by itself.
    fileprivate func cycled() -> some Sequence<Element> {
        sequence(state: 0) { index in
            defer { index = (index + 1) % count }
            return self[index]
        }
    }
}
