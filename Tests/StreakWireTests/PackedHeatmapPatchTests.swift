import StreakCore
import StreakWire
import Testing

/// Replacing some columns' cells of a packed heatmap gives exactly the packing of the heatmap with
/// those columns replaced: how the server patches a cached packed answer after a write.
@Suite("Columns of a packed heatmap replaced")
struct PackedHeatmapPatchTests {
    /// Two heatmaps of the same range from two random histories, the second with `habitCount`
    /// habits (over 100 put completed counts in the exceptions).
    static func pair(_ random: inout SplitMix64, habitCount: Int) throws -> (Heatmap, Heatmap)? {
        let first = try PackedHeatmapTests.randomIndex(&random, habitCount: 1 + Int(random.next() % 6))
        let second = try PackedHeatmapTests.randomIndex(&random, habitCount: habitCount)
        let options = try PackedHeatmapTests.randomOptions(&random)
        guard let old = try? HeatmapBuilder.build(first, options: options) else { return nil }
        return (old, try HeatmapBuilder.build(second, options: options))
    }

    @Test("the patched packing is the packing of the changed heatmap", arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func patchedEqualsPacked(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var patched = 0
        for round in 0..<20 {
            // Some rounds with 120 habits: their days are in `completed_exceptions`.
            let habitCount = round % 5 == 0 ? 120 : 1 + Int(random.next() % 6)
            guard let (old, new) = try Self.pair(&random, habitCount: habitCount) else { continue }
            var expected = old
            var columns: [Int] = []
            for _ in 0..<Int(random.next() % 5) {
                let column = Int(random.next() % UInt64(old.weeks.count))
                expected.weeks[column] = new.weeks[column]
                columns.append(column)
            }
            let labels = random.next() % 2 == 0
            let packed = WirePackedHeatmap(old, monthLabels: labels)
            // Through the wire, as the server holds it in its cache.
            let cached = try WirePackedHeatmap(serializedBytes: packed.serializedBytes())
            let result = try cached.replacingCells(of: columns.map { new.weeks[$0] })
            #expect(result == WirePackedHeatmap(expected, monthLabels: labels), "seed \(seed), round \(round)")
            #expect(try result.unpacked() == (try WirePackedHeatmap(expected, monthLabels: labels).unpacked()))
            if expected != old { patched += 1 }
        }
        #expect(patched > 5)
    }

    @Test("a cell that is not one of the heatmap's present days, or a heatmap that does not decode, is refused")
    func refused() throws {
        let from = try CivilDate(year: 2024, month: 3, day: 1)
        let index = CompletionIndex(habits: [Habit(id: 1, name: "h", createdOn: from)], completions: [])
        let options = HeatmapOptions(asOf: try from.adding(days: 20), from: from, to: try from.adding(days: 40))
        let heatmap = try HeatmapBuilder.build(index, options: options)
        let packed = WirePackedHeatmap(heatmap, monthLabels: false)
        // A column of another range: its days after `as_of` are not present here.
        let later = try HeatmapBuilder.build(
            index,
            options: HeatmapOptions(asOf: try from.adding(days: 40), from: from, to: try from.adding(days: 40))
        )
        #expect(throws: WireError.self) { try packed.replacingCells(of: [later.weeks[5]]) }
        var broken = packed
        broken.percents.removeLast()
        #expect(throws: WireError.self) { try broken.replacingCells(of: [heatmap.weeks[0]]) }
        #expect(try packed.replacingCells(of: [heatmap.weeks[1]]) == packed)
    }
}
