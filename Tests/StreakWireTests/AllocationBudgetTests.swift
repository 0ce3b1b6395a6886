import StreakCore
import StreakWire
import Testing

@Suite struct AllocationBudgetTests {
    /// A one-year heatmap: 53 weeks of 7 cells with labels.
    static let bigHeatmap: WireGetHeatmapResponse = {
        let cell = WireHeatmapCell(
            present: true,
            date: WireSamples.date(2024, 1, 1),
            completed: 2,
            active: 3,
            level: 2,
            percent: 67,
            accessibilityLabel: "January 1: 67% completed, 2 of 3 habits"
        )
        let week = WireHeatmapWeek(start: WireSamples.date(2024, 1, 1), cells: Array(repeating: cell, count: 7))
        return WireGetHeatmapResponse(
            heatmap: WireHeatmap(
                from: WireSamples.date(2024, 1, 1),
                to: WireSamples.date(2024, 12, 31),
                weekStart: .monday,
                weeks: Array(repeating: week, count: 53),
                monthLabels: (0..<12).map { WireMonthLabel(label: "M\($0)", weekIndex: Int32($0 * 4)) }
            )
        )
    }()

    @Test func smallBudgetFailsWithResourceExhausted() {
        let bytes = Self.bigHeatmap.serializedBytes()
        #expect {
            try WireGetHeatmapResponse(serializedBytes: bytes, limits: DecodingLimits(maxAllocationBytes: 4096))
        } throws: { error in
            guard let error = error as? WireError else { return false }
            return error.code == .tooLarge && error.rpcStatusCode == .resourceExhausted
        }
    }

    @Test func defaultBudgetDecodesAOneYearHeatmap() throws {
        let bytes = Self.bigHeatmap.serializedBytes()
        #expect(try WireGetHeatmapResponse(serializedBytes: bytes) == Self.bigHeatmap)
    }

    @Test func everyBudgetEitherSucceedsOrFailsCleanly() throws {
        let bytes = WireSamples.all.first { $0.name == "BuildHeatmapRequest" }!.value.serializedBytes()
        var smallestSuccess: Int?
        for budget in stride(from: 0, through: 8192, by: 8) {
            do {
                let decoded = try WireBuildHeatmapRequest(
                    serializedBytes: bytes,
                    limits: DecodingLimits(maxAllocationBytes: budget)
                )
                smallestSuccess = smallestSuccess ?? budget
                #expect(decoded.serializedBytes() == bytes)
            } catch {
                #expect(error.code == .tooLarge)
                #expect(smallestSuccess == nil, "a larger budget failed after a smaller one succeeded")
            }
        }
        #expect(smallestSuccess != nil)
    }

    @Test(arguments: [0, -1], [[], [8, 1]] as [[UInt8]])
    func zeroOrNegativeBudgetRefusesEvenTheEmptyMessage(budget: Int, bytes: [UInt8]) throws {
        // protobuf-c allocates the message struct itself, so nothing decodes without a budget.
        let limits = DecodingLimits(maxAllocationBytes: budget)
        #expect {
            try WireHabit(serializedBytes: bytes, limits: limits)
        } throws: { error in
            (error as? WireError)?.code == .tooLarge
        }
    }

    @Test func manyRepeatedDatesHitTheBudgetNotTheHeap() {
        // 100,000 empty Date elements: 200 kB on the wire, several MB unpacked.
        let bytes: [UInt8] = (0..<200_000).map { $0 % 2 == 0 ? 0x0A : 0x00 }
        #expect {
            try WireBuildMonthLabelsRequest(serializedBytes: bytes, limits: DecodingLimits(maxAllocationBytes: 1 << 20))
        } throws: { error in
            (error as? WireError)?.code == .tooLarge
        }
    }
}
