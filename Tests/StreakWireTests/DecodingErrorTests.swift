import StreakCore
import Testing

@testable import StreakWire

/// A length-delimited field: tag, length, bytes (lengths < 128 only).
func lengthDelimited(_ field: UInt8, _ bytes: [UInt8]) -> [UInt8] {
    precondition(bytes.count < 128)
    return [field << 3 | 2, UInt8(bytes.count)] + bytes
}

/// A varint field (values < 128 only).
func varint(_ field: UInt8, _ value: UInt8) -> [UInt8] {
    precondition(value < 128)
    return [field << 3, value]
}

/// The encoding of a Date message with arbitrary components.
func dateBytes(_ year: Int32, _ month: Int32, _ day: Int32) -> [UInt8] {
    WireDate(year: year, month: month, day: day).serializedBytes()
}

@Suite struct DecodingErrorTests {
    @Test(arguments: [
        (Int32(2024), Int32(2), Int32(30), "invalid date 2024-02-30 in field created_on"),
        (2023, 2, 29, "invalid date 2023-02-29 in field created_on"),
        (2024, 13, 1, "invalid date 2024-13-01 in field created_on"),
        (2024, 1, 0, "invalid date 2024-01-00 in field created_on"),
        (0, 1, 1, "invalid date 0000-01-01 in field created_on"),
        (10000, 1, 1, "invalid date 10000-01-01 in field created_on"),
        (-5, 1, 1, "invalid date -0005-01-01 in field created_on"),
        (0, 0, 0, "invalid date 0000-00-00 in field created_on"),
    ])
    func invalidDateIsRejected(year: Int32, month: Int32, day: Int32, message: String) {
        let bytes = varint(1, 1) + lengthDelimited(3, dateBytes(year, month, day))
        #expect(throws: WireError(.invalidDate, message)) { try WireHabit(serializedBytes: bytes) }
        #expect((try? WireHabit(serializedBytes: bytes)) == nil)
        do {
            _ = try WireHabit(serializedBytes: bytes)
        } catch {
            #expect(error.rpcStatusCode == .invalidArgument)
        }
    }

    @Test func invalidDateInARepeatedFieldIsRejected() {
        let bytes = lengthDelimited(1, dateBytes(2024, 1, 1)) + lengthDelimited(1, dateBytes(2024, 4, 31))
        #expect(throws: WireError(.invalidDate, "invalid date 2024-04-31 in field week_starts")) {
            try WireBuildMonthLabelsRequest(serializedBytes: bytes)
        }
    }

    @Test func invalidDateDeepInsideIsRejected() {
        let cell = lengthDelimited(2, dateBytes(2024, 2, 30))
        let week = lengthDelimited(2, cell)
        let heatmap = lengthDelimited(4, week)
        let response = lengthDelimited(1, heatmap)
        #expect(throws: WireError(.invalidDate, "invalid date 2024-02-30 in field date")) {
            try WireGetHeatmapResponse(serializedBytes: response)
        }
    }

    @Test(arguments: [UInt8(8), 9, 127])
    func unknownWeekdayIsRejected(value: UInt8) {
        let bytes = varint(3, value)
        #expect(throws: WireError(.invalidValue, "unknown weekday \(value) in field week_start")) {
            try WireSettings(serializedBytes: bytes)
        }
    }

    @Test func negativeWeekdayIsRejected() {
        // week_start = -1: a ten-byte varint.
        let bytes: [UInt8] = [3 << 3, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]
        #expect(throws: WireError(.invalidValue, "unknown weekday -1 in field week_start")) {
            try WireSettings(serializedBytes: bytes)
        }
    }

    @Test func unspecifiedWeekdayInTheOneofMeansNotGiven() throws {
        #expect(try WireWeekStart(serializedBytes: varint(1, 0)).kind == nil)
    }

    @Test(arguments: [[0xC3, 0x28], [0xFF], [0xED, 0xA0, 0x80], [0x61, 0xE2, 0x82]] as [[UInt8]])
    func invalidUTF8IsRejected(name: [UInt8]) {
        let bytes = varint(1, 1) + lengthDelimited(2, name)
        #expect {
            try WireHabit(serializedBytes: bytes)
        } throws: { error in
            guard let error = error as? WireError else { return false }
            return error.rpcStatusCode == .invalidArgument && [.invalidValue, .malformed].contains(error.code)
        }
    }

    @Test func unknownFieldsAreSkipped() throws {
        let bytes = varint(1, 5) + lengthDelimited(15, [1, 2, 3]) + varint(14, 1)
        #expect(try WireHabit(serializedBytes: bytes) == WireHabit(id: 5))
    }

    @Test func everyTruncationFailsCleanlyOrDecodes() {
        let bytes = WireSamples.all.first { $0.name == "BuildHeatmapRequest" }!.value.serializedBytes()
        for length in 0..<bytes.count {
            let prefix = Array(bytes[..<length])
            do {
                _ = try WireBuildHeatmapRequest(serializedBytes: prefix)
            } catch {
                #expect(error.rpcStatusCode == .invalidArgument)
            }
        }
        #expect(throws: WireError.self) { try WireBuildHeatmapRequest(serializedBytes: Array(bytes.dropLast())) }
    }

    @Test func randomGarbageNeverCrashes() {
        var generator = SplitMix64(seed: 0x5EED)
        var failures = 0
        for _ in 0..<20_000 {
            let count = Int(generator.next() % 64)
            let bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            failures += decodeAsSeveralTypes(bytes)
        }
        #expect(failures > 0)
    }

    @Test func mutatedMessagesNeverCrash() {
        var generator = SplitMix64(seed: 42)
        let originals = WireSamples.all.map { $0.value.serializedBytes() }.filter { !$0.isEmpty }
        for _ in 0..<20_000 {
            var bytes = originals[Int(generator.next() % UInt64(originals.count))]
            for _ in 0..<(1 + generator.next() % 4) {
                let index = Int(generator.next() % UInt64(bytes.count))
                bytes[index] = UInt8(truncatingIfNeeded: generator.next())
            }
            _ = decodeAsSeveralTypes(bytes)
        }
    }

    /// Decodes `bytes` as several message types; returns how many decodes failed (each with a WireError).
    private func decodeAsSeveralTypes(_ bytes: [UInt8]) -> Int {
        var failures = 0
        func attempt<M: WireMessage>(_ type: M.Type) {
            do {
                let decoded = try M(serializedBytes: bytes)
                // Whatever decodes must re-encode (protobuf-c and the Swift writer agreeing) to the same value.
                #expect(try M(serializedBytes: decoded.serializedBytes()) == decoded)
                #expect(decoded.serializedBytes() == swiftWriterBytes(decoded))
            } catch {
                failures += 1
                #expect([.invalidArgument, .resourceExhausted].contains(error.rpcStatusCode))
            }
        }
        attempt(WireHabit.self)
        attempt(WireBuildHeatmapRequest.self)
        attempt(WireGetHeatmapResponse.self)
        attempt(WireMonthPage.self)
        attempt(WireWeekStart.self)
        attempt(WirePingRequest.self)
        attempt(WireGetServerInfoResponse.self)
        return failures
    }
}
