import Foundation
import StreakCore
import StreakTestSupport
import StreakWire
import Testing

/// The README's sample year (`streak --as-of 2025-06-15 sample --seed 7` on a fresh server) in the
/// packed heatmap encoding: at most 600 bytes where the classic answer takes about 9 KB, and the
/// same cells once unpacked.
@Suite struct PackedSampleYearTests {
    @Test func theSampleYearPacksIntoAtMost600Bytes() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        let sample = try cli.run(["sample", "--seed", "7"])
        #expect(sample.status == 0, "\(sample.stderr)")
        let connection = try server.connect()
        defer { connection.close() }
        func answer(_ request: WireGetHeatmapRequest) throws -> [UInt8] {
            let (status, bytes) = try connection.rawCall(
                WireMethod.getHeatmap.rawValue,
                message: request.serializedBytes(),
                token: server.token
            )
            #expect(status.code == .ok)
            return bytes
        }
        var request = WireGetHeatmapRequest(asOf: try CivilDate(parsing: "2025-06-15"))
        let classic = try answer(request)
        request.packed = true
        let packed = try answer(request)
        request.packedMonthLabels = true
        let labelled = try answer(request)
        print(
            "sample year GetHeatmap answer: classic \(classic.count) bytes, packed \(packed.count) bytes, packed with month labels \(labelled.count) bytes"
        )
        #expect(packed.count <= 600)
        #expect(classic.count > 8000)
        let expected = try #require(try WireGetHeatmapResponse(serializedBytes: classic).heatmap)
        let unpacked = try #require(try WireGetHeatmapResponse(serializedBytes: labelled).packed).unpacked()
        #expect(unpacked == expected)
    }
}
