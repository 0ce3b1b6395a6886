import Foundation
import StreakCore
import StreakWire
import Testing

/// Decodes what `value` encodes, as the value's own type.
func roundTrip<M: WireMessage>(_ value: M) throws -> M {
    try M(serializedBytes: value.serializedBytes())
}

/// Whether two existential messages are equal.
func same(_ lhs: any WireMessage, _ rhs: any WireMessage) -> Bool {
    AnyHashable(lhs) == AnyHashable(rhs)
}

@Suite struct RoundTripTests {
    @Test(arguments: WireSamples.all)
    func sampleRoundTrips(_ sample: WireSample) throws {
        let decoded = try roundTrip(sample.value)
        #expect(same(decoded, sample.value))
    }

    @Test(arguments: WireSamples.defaults)
    func defaultMessageIsEmptyAndRoundTrips(_ sample: WireSample) throws {
        #expect(sample.value.serializedBytes().isEmpty)
        #expect(same(try roundTrip(sample.value), sample.value))
        func decodeEmpty<M: WireMessage>(_ value: M) throws -> M { try M(serializedBytes: []) }
        #expect(same(try decodeEmpty(sample.value), sample.value))
    }

    @Test(arguments: WireSamples.all)
    func serializeAppendsToExistingBytes(_ sample: WireSample) {
        var buffer: [UInt8] = [9, 9]
        sample.value.serialize(appendingTo: &buffer)
        #expect(buffer == [9, 9] + sample.value.serializedBytes())
    }

    @Test(arguments: WireSamples.all)
    func decodesFromRawMemory(_ sample: WireSample) throws {
        func decode<M: WireMessage>(_ value: M) throws -> M {
            try value.serializedBytes().withUnsafeBytes { raw in try M(serializedBytes: raw) }
        }
        #expect(same(try decode(sample.value), sample.value))
    }

    @Test(arguments: WireSamples.names)
    func unicodeHabitNamesRoundTrip(_ name: String) throws {
        let habit = WireHabit(id: 1, name: name, createdOn: .min)
        let decoded = try roundTrip(habit)
        #expect(decoded.name == name)
        #expect(Array(decoded.name.utf8) == Array(name.utf8))
    }

    @Test(arguments: [CivilDate.min, CivilDate.max, WireSamples.date(2024, 2, 29), WireSamples.date(1970, 1, 1)])
    func extremeDatesRoundTrip(_ date: CivilDate) throws {
        let request = WireRecordCompletionRequest(habitId: 1, date: date, asOf: date)
        #expect(try roundTrip(request) == request)
    }

    @Test func absentAndZeroAreDistinct() throws {
        let absent = WireStreakSummary()
        let present = WireStreakSummary(asOf: .min, currentStart: .max)
        #expect(try roundTrip(absent).asOf == nil)
        #expect(try roundTrip(present).currentStart == .max)
        #expect(try roundTrip(present).longestStart == nil)
        let noWeekStart = WireGetHeatmapRequest(weekStart: nil)
        let emptyWeekStart = WireGetHeatmapRequest(weekStart: WireWeekStart())
        #expect(try roundTrip(noWeekStart).weekStart == nil)
        #expect(try roundTrip(emptyWeekStart).weekStart == WireWeekStart())
    }

    @Test func oneofKeepsAnEmptyLocale() throws {
        let start = WireWeekStart(kind: .locale(""))
        #expect(!start.serializedBytes().isEmpty)
        #expect(try roundTrip(start).kind == .locale(""))
    }

    @Test func everyProtoMessageHasASample() throws {
        let proto = repositoryRoot.appendingPathComponent("proto/streak/v1")
        var declared = Set<String>()
        for file in try FileManager.default.contentsOfDirectory(atPath: proto.path) where file.hasSuffix(".proto") {
            let text = try String(contentsOf: proto.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("message ") {
                declared.insert("Wire" + line.dropFirst("message ".count).prefix { $0.isLetter || $0.isNumber })
            }
        }
        let sampled = Set(WireSamples.all.map { "\(type(of: $0.value))" })
        #expect(declared.count > 50)
        #expect(declared == sampled)
    }
}

/// The package root (the directory holding Package.swift), found from this file's path.
let repositoryRoot: URL = {
    var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
        url.deleteLastPathComponent()
    }
    return url
}()
