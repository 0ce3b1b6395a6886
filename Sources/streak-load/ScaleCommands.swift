import ArgumentParser
import Dispatch
import Foundation
import Histogram
import StreakCore
import StreakWire
import Synchronization

extension StreakLoad {
    /// Gives many users the benchmark's data set through a server: one ImportData each, from
    /// several connections (`generate` writes the same data straight into a store, faster).
    struct Populate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Give every user five habits and a year of completions, one ImportData per user."
        )

        @OptionGroup var target: TargetOptions

        @Option(help: "Connections importing at once.")
        var connections = 8

        func run() throws {
            let tokens = try target.tokens()
            let endpoint = try target.endpoint()
            let started = Date()
            let failures = Mutex<[String]>([])
            let workers = max(1, min(connections, tokens.count))
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                do {
                    let connection = try LoadConnection(address: endpoint)
                    var id: UInt32 = 1
                    for index in stride(from: worker, to: tokens.count, by: workers) {
                        let template = RequestTemplate(
                            method: WireMethod.importData.rawValue,
                            token: tokens[index],
                            message: BenchUser.importRequest(seed: BenchUser.seed(index: index)).serializedBytes()
                        )
                        _ = try connection.call(template, id: id)
                        id &+= 1
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            if let failure = failures.withLock({ $0.first }) { throw LoadError("populate: \(failure)") }
            print(
                "populated \(tokens.count) users with \(BenchUser.habitCount) habits and a year each"
                    + String(format: " (%.1f s)", Date().timeIntervalSince(started))
            )
        }
    }

    /// Reads every user's heatmap twice (the first read loads the user, the second may answer from
    /// memory) and reports latencies, the server's resident memory and what it says it holds.
    struct Scale: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "GetHeatmap for every user, a cold pass then a warm one: latencies, memory, users held."
        )

        @OptionGroup var target: TargetOptions

        @Option(help: "Connections reading at once.")
        var connections = 8

        @Option(help: "The label of the RESULT lines.")
        var label = "scale"

        func run() throws {
            let tokens = try target.tokens()
            let endpoint = try target.endpoint()
            let rssBefore = target.stats?.memoryMiB("VmRSS")
            for pass in ["cold", "warm"] {
                let started = Date()
                let latency = try heatmaps(tokens, endpoint: endpoint)
                let seconds = Date().timeIntervalSince(started)
                Thread.sleep(forTimeInterval: 0.5)
                let info = try serverInfo(token: tokens[0], endpoint: endpoint)
                let rss = target.stats?.memoryMiB("VmRSS").map { String(format: "%.1f", $0) } ?? "-"
                func ms(_ percentile: Double) -> String {
                    String(format: "%.3f", Double(latency.valueAtPercentile(percentile)) / 1000)
                }
                print(
                    "RESULT name=\(label)-\(pass) users=\(tokens.count) rps=\(Int(Double(tokens.count) / seconds)) "
                        + "p50=\(ms(50)) p99=\(ms(99)) rss_mib=\(rss) "
                        + "rss_before_mib=\(rssBefore.map { String(format: "%.1f", $0) } ?? "-") "
                        + "held=\(info.usersHeld) evicted=\(info.usersEvicted) "
                        + "counted_mib=\(String(format: "%.1f", Double(info.userMemoryBytes) / 1_048_576)) "
                        + "budget_mib=\(String(format: "%.1f", Double(info.userMemoryBudgetBytes) / 1_048_576))"
                )
            }
        }

        private func heatmaps(_ tokens: [String], endpoint: ServerEndpoint) throws -> Histogram<UInt64> {
            let workers = max(1, min(connections, tokens.count))
            let merged = Mutex(
                Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
            )
            let failures = Mutex<[String]>([])
            var request = WireGetHeatmapRequest()
            request.asOf = BenchUser.asOf
            let message = request.serializedBytes()
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                do {
                    let connection = try LoadConnection(address: endpoint)
                    var histogram = Histogram<UInt64>(
                        highestTrackableValue: 60_000_000,
                        numberOfSignificantValueDigits: .three
                    )
                    var id: UInt32 = 1
                    for index in stride(from: worker, to: tokens.count, by: workers) {
                        let template = RequestTemplate(
                            method: WireMethod.getHeatmap.rawValue,
                            token: tokens[index],
                            message: message
                        )
                        let sent = MonotonicClock.now()
                        _ = try connection.call(template, id: id)
                        _ = histogram.record((MonotonicClock.now() - sent) / 1000)
                        id &+= 1
                    }
                    merged.withLock { $0.add(histogram) }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            if let failure = failures.withLock({ $0.first }) { throw LoadError("scale: \(failure)") }
            return merged.withLock { $0 }
        }

        private func serverInfo(token: String, endpoint: ServerEndpoint) throws -> WireGetServerInfoResponse {
            let connection = try LoadConnection(address: endpoint)
            let template = RequestTemplate(
                method: WireMethod.getServerInfo.rawValue,
                token: token,
                message: WireGetServerInfoRequest().serializedBytes()
            )
            do {
                return try WireGetServerInfoResponse(serializedBytes: try connection.call(template, id: 1))
            } catch {
                throw LoadError("cannot decode GetServerInfo: \(error)")
            }
        }
    }
}
