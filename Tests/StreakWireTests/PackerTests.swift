@testable import StreakWire
import Testing

/// StreakWire encodes with its generated back-to-front writer (`WireWriter`); it must write exactly
/// what protobuf-c's `protobuf_c_message_pack` writes for the same message built as C structs.
@Suite struct PackerTests {
    @Test(arguments: WireSamples.all + WireSamples.defaults)
    func sameBytesAsProtobufC(_ sample: WireSample) {
        #expect(sample.value.serializedBytes() == referenceBytes(sample.value))
    }

    @Test func sameBytesForAOneYearHeatmap() {
        let heatmap = AllocationBudgetTests.bigHeatmap
        #expect(heatmap.serializedBytes() == WireCodec.referenceEncode(heatmap))
    }

    @Test func writerGrowsPastItsFirstBuffer() {
        let ping = WirePingRequest(payload: (0..<100_000).map { UInt8(truncatingIfNeeded: $0) })
        #expect(ping.serializedBytes() == WireCodec.referenceEncode(ping))
        var buffer: [UInt8] = [1]
        ping.serialize(appendingTo: &buffer)
        #expect(buffer == [1] + WireCodec.referenceEncode(ping))
    }

    @Test(arguments: [0, 1, 127, 128, 16_383, 16_384, Int(Int32.max)])
    func varintBoundaries(value: Int) {
        let count = WireWeekdayCount(count: Int32(value))
        #expect(count.serializedBytes() == WireCodec.referenceEncode(count))
        let negative = WireWeekdayCount(count: -Int32(value))
        #expect(negative.serializedBytes() == WireCodec.referenceEncode(negative))
    }
}

/// protobuf-c's encoding of any sample.
func referenceBytes(_ value: any WireMessage) -> [UInt8] {
    func reference<M: CBridgedMessage>(_ value: M) -> [UInt8] {
        WireCodec.referenceEncode(value)
    }
    let bridged = value as! any CBridgedMessage
    return reference(bridged)
}
