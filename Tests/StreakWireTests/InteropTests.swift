import StreakWire
import Testing

/// Interoperability with the reference implementation: protoc (C++ protobuf) encodes a text-format
/// rendering of each sample and StreakWire decodes it; StreakWire encodes and protoc decodes it to the
/// same content.
@Suite(.enabled(if: Protoc.path != nil, "protoc is not installed; run scripts/ensure-deps.sh"))
struct InteropTests {
    @Test(arguments: WireSamples.all + WireSamples.defaults)
    func referenceAndShimAgree(_ sample: WireSample) throws {
        let name = "\(type(of: sample.value))".dropFirst("Wire".count)
        let text = TextFormat.format(sample.value)
        let reference = try Protoc.encode(String(name), text: text)

        // The shim decodes what the reference encodes.
        func decode<M: WireMessage>(_ value: M) throws -> M { try M(serializedBytes: reference) }
        let decoded = try decode(sample.value)
        #expect(same(decoded, sample.value), "text format:\n\(text)")

        // The reference decodes what the shim encodes, to the same content.
        let ours = sample.value.serializedBytes()
        let referenceText = try Protoc.decode(String(name), bytes: reference)
        let oursText = try Protoc.decode(String(name), bytes: ours)
        #expect(oursText == referenceText)
        // Both write fields in field-number order, so even the bytes agree.
        #expect(ours == reference)
    }

    @Test func referenceRejectsNothingTheShimAccepts() throws {
        // A present but empty Date is a real field for protoc; the shim rejects it as 0000-00-00.
        let bytes = try Protoc.encode("GetStreakRequest", text: "as_of { }")
        #expect(bytes == [0x0A, 0x00])
        #expect(throws: WireError(.invalidDate, "invalid date 0000-00-00 in field as_of")) {
            try WireGetStreakRequest(serializedBytes: bytes)
        }
    }
}
