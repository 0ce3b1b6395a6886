import Foundation
import StreakWire
import Testing

@Suite struct WireMethodTests {
    @Test func everyRpcHasAMethod() throws {
        let service = try String(
            contentsOf: repositoryRoot.appendingPathComponent("proto/streak/v1/service.proto"),
            encoding: .utf8
        )
        let rpcs = service.split(separator: "\n").compactMap { line -> String? in
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("rpc ") else { return nil }
            return "/streak.v1.Streaks/" + trimmed.dropFirst(4).prefix { $0 != "(" }
        }
        #expect(Set(rpcs) == Set(WireMethod.allCases.map(\.rawValue)))
        #expect(rpcs.count == WireMethod.allCases.count)
    }

    @Test func pathsAndFlags() {
        #expect(WireMethod(rawValue: "/streak.v1.Streaks/GetHeatmap") == .getHeatmap)
        #expect(WireMethod.createHabit.rawValue == "/streak.v1.Streaks/CreateHabit")
        #expect(WireMethod.allCases.filter(\.isServerStreaming) == [.watch, .exportData])
        #expect(WireMethod.allCases.filter { !$0.requiresAuthentication } == [.ping])
        #expect(WireMethod.getHeatmap.requestType is WireGetHeatmapRequest.Type)
        #expect(WireMethod.watch.responseType is WireWatchEvent.Type)
        #expect(WireMethod.getServerInfo.name == "GetServerInfo")
    }

    @Test func streamingByPathAgreesWithTheMethods() {
        for method in WireMethod.allCases {
            #expect(WireMethod.isServerStreaming(path: method.rawValue) == method.isServerStreaming)
        }
        #expect(!WireMethod.isServerStreaming(path: "/streak.v1.Streaks/Watc"))
        #expect(!WireMethod.isServerStreaming(path: ""))
    }
}
