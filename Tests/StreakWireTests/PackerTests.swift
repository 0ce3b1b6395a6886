import Testing

@testable import StreakWire

/// StreakWire encodes through protobuf-c's `protobuf_c_message_pack`; the generated Swift writer
/// (`WireWriter`), written independently from the protobuf encoding rules, must agree byte for byte.
@Suite struct PackerTests {
    @Test(arguments: WireSamples.all + WireSamples.defaults)
    func sameBytesAsProtobufC(_ sample: WireSample) {
        #expect(sample.value.serializedBytes() == swiftWriterBytes(sample.value))
    }

    @Test func sameBytesForAOneYearHeatmap() {
        let heatmap = AllocationBudgetTests.bigHeatmap
        #expect(heatmap.serializedBytes() == referenceEncode(heatmap))
    }

    @Test func writerGrowsPastItsFirstBuffer() {
        let ping = WirePingRequest(payload: (0..<100_000).map { UInt8(truncatingIfNeeded: $0) })
        #expect(ping.serializedBytes() == referenceEncode(ping))
        var buffer: [UInt8] = [1]
        ping.serialize(appendingTo: &buffer)
        #expect(buffer == [1] + referenceEncode(ping))
    }

    @Test(arguments: [0, 1, 127, 128, 16_383, 16_384, Int(Int32.max)])
    func varintBoundaries(value: Int) {
        let count = WireWeekdayCount(count: Int32(value))
        #expect(count.serializedBytes() == referenceEncode(count))
        let negative = WireWeekdayCount(count: -Int32(value))
        #expect(negative.serializedBytes() == referenceEncode(negative))
    }
}

/// The reference encoder's bytes for any message (independent of protobuf-c): what
/// `serializedBytes()`, protobuf-c's encoding, is compared with.
func swiftWriterBytes(_ value: any WireMessage) -> [UInt8] {
    func reference<M: ReferenceWritable>(_ value: M) -> [UInt8] {
        referenceEncode(value)
    }
    let writable = value as! any ReferenceWritable
    return reference(writable)
}
