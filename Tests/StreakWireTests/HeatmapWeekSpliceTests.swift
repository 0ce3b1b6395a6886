import StreakCore
import StreakWire
import Testing

/// Replacing one column of an encoded classic GetHeatmap answer gives exactly the bytes
/// protobuf-c encodes for the answer with that column changed.
@Suite("One column of an encoded heatmap replaced")
struct HeatmapWeekSpliceTests {
    /// A column of seven cells, some absent; counts up to 300 and labels up to 200 bytes, so that
    /// varints and length prefixes take one, two or three bytes.
    static func randomWeek(_ random: inout SplitMix64, start: CivilDate) -> WireHeatmapWeek {
        let cells = (0..<7).map { offset -> WireHeatmapCell in
            guard Int.random(in: 0..<5, using: &random) > 0 else { return WireHeatmapCell() }
            return WireHeatmapCell(
                present: true,
                date: try! start.adding(days: offset),
                completed: Int32.random(in: 0...300, using: &random),
                active: Int32.random(in: 0...300, using: &random),
                level: Int32.random(in: 0...3, using: &random),
                percent: Int32.random(in: 0...100, using: &random),
                accessibilityLabel: String(repeating: "é", count: Int.random(in: 0...1, using: &random) * 100),
                due: Int32.random(in: 0...300, using: &random),
                rest: Bool.random(using: &random)
            )
        }
        return WireHeatmapWeek(start: start, cells: cells)
    }

    static func randomHeatmap(_ random: inout SplitMix64, weeks count: Int) -> WireHeatmap {
        let from = try! CivilDate(year: 2024, month: 1, day: 1).adding(days: Int.random(in: 0..<400, using: &random))
        let weeks = (0..<count).map { randomWeek(&random, start: try! from.adding(days: 7 * $0)) }
        return WireHeatmap(
            from: from,
            to: try! from.adding(days: max(0, 7 * count - 1)),
            weekStart: Weekday.allCases.randomElement(using: &random)!,
            weeks: weeks,
            monthLabels: (0..<count / 4).map { WireMonthLabel(label: "Mär", weekIndex: Int32($0 * 4)) },
            legend: Bool.random(using: &random)
                ? [WireLegendEntry(level: 1, minPercent: 1, maxPercent: 49, description: "1-49%")] : []
        )
    }

    @Test("the spliced answer is the encoding of the changed answer", arguments: 1...40)
    func splicedEqualsEncoded(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var heatmap = Self.randomHeatmap(&random, weeks: Int.random(in: 1...60, using: &random))
        var bytes = WireGetHeatmapResponse(heatmap: heatmap).serializedBytes()
        for _ in 0..<8 {
            let position = Int.random(in: 0..<heatmap.weeks.count, using: &random)
            let week = Self.randomWeek(&random, start: heatmap.weeks[position].start!)
            heatmap.weeks[position] = week
            let spliced = try #require(WireGetHeatmapResponse.replacingWeek(position, with: week, in: bytes))
            #expect(spliced == WireGetHeatmapResponse(heatmap: heatmap).serializedBytes(), "seed \(seed)")
            bytes = spliced
        }
        #expect(try WireGetHeatmapResponse(serializedBytes: bytes).heatmap == heatmap)
    }

    @Test("an answer whose body length prefix grows or shrinks a byte is spliced right")
    func lengthPrefixBoundaries() throws {
        // One column whose size moves the heatmap's length across 127/128 and 16383/16384 bytes.
        let start = try CivilDate(year: 2024, month: 3, day: 4)
        for labelBytes in [0, 40, 90, 100, 2_300, 2_340] {
            let small = WireHeatmapWeek(start: start, cells: [WireHeatmapCell(present: true, date: start)])
            let label = String(repeating: "x", count: labelBytes)
            let large = WireHeatmapWeek(
                start: start,
                cells: (0..<7).map { _ in WireHeatmapCell(present: true, date: start, accessibilityLabel: label) }
            )
            for (before, after) in [(small, large), (large, small)] {
                let heatmap = WireHeatmap(from: start, to: start, weekStart: .monday, weeks: [before, before])
                var changed = heatmap
                changed.weeks[1] = after
                let bytes = WireGetHeatmapResponse(heatmap: heatmap).serializedBytes()
                #expect(
                    WireGetHeatmapResponse.replacingWeek(1, with: after, in: bytes)
                        == WireGetHeatmapResponse(heatmap: changed).serializedBytes(),
                    "\(labelBytes) label bytes"
                )
            }
        }
    }

    @Test("bytes that are not such an answer, or a column it does not have, give nil")
    func refusals() throws {
        var random = SplitMix64(seed: 7)
        let heatmap = Self.randomHeatmap(&random, weeks: 3)
        let week = heatmap.weeks[0]
        let bytes = WireGetHeatmapResponse(heatmap: heatmap).serializedBytes()
        #expect(WireGetHeatmapResponse.replacingWeek(0, with: week, in: bytes) != nil)
        let packed = WireGetHeatmapResponse(packed: WirePackedHeatmap(from: heatmap.from, days: 3)).serializedBytes()
        let cases: [(String, Int, [UInt8])] = [
            ("a column past the last", 3, bytes),
            ("a negative column", -1, bytes),
            ("a packed answer", 0, packed),
            ("no bytes", 0, []),
            ("cut short", 0, Array(bytes.dropLast())),
            ("a field after the heatmap", 0, bytes + [0x12, 0x00]),
            ("a length past the end", 0, [0x0A, 0x7F] + bytes.dropFirst(2)),
            ("an overlong varint", 0, [0x0A] + [UInt8](repeating: 0xFF, count: 11)),
            ("a varint past 64 bits", 0, [0x0A] + [UInt8](repeating: 0x80, count: 9) + [0x02]),
            ("field number 0", 0, [0x0A, 0x02, 0x02, 0x00]),
            ("wire type 3", 0, [0x0A, 0x02, 0x23, 0x00]),
        ]
        for (name, position, input) in cases {
            #expect(WireGetHeatmapResponse.replacingWeek(position, with: week, in: input) == nil, "\(name)")
        }
    }
}
