import ArgumentParser
import Foundation
import StreakFraming
import StreakWire

extension StreakLoad {
    /// A normal client's latency while other connections pipeline big requests and never read.
    struct Hostile: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "A normal client's GetStreak latency alone, then while hogs pipeline 20-year heatmaps and never read.",
            discussion: """
                Each hog connection sends --requests GetHeatmap requests for 20 years (7,320 days, accessibility
                labels on, about 400 KB an answer; the ranges rotate so that answers are computed, not only
                cached) in one go and never reads; with --hold it closes after that many seconds and connects
                again, otherwise it stays for the whole run. With --reading the hogs read every answer
                instead and send a new request for each: 20-year answers flow without a pause. Prints two RESULT lines (NAME-alone, NAME) with the normal
                client's latency; the second also has the server's resident memory before the hogs
                (rss_base_mib), its largest sample while they ran (rss_max_mib, every 50 ms) and the bound the
                server's configuration implies (bound_mib: hogs x --max-pending-output-bytes).
                """
        )

        @OptionGroup var target: TargetOptions

        @Option(help: "Hog connections.")
        var hogs = 10

        @Option(
            help:
                "Requests each hog connection sends before it stops (in flight beyond the server's limit are refused)."
        )
        var requests = 256

        @Option(
            help: "Seconds a hog connection stays open without reading before it reconnects (default: the whole run)."
        )
        var hold: Double?

        @Flag(help: "The hogs read every answer (and send a request for each) instead of never reading.")
        var reading = false

        @Option(help: "The server's --max-pending-output-bytes, for the memory bound printed.")
        var maxPendingOutputBytes = 4 * 1024 * 1024

        @Option(help: "Normal connections (one request in flight each).")
        var connections = 1

        @Option(help: "Seconds of warm-up before each measured window.")
        var warmup = 1.0

        @Option(help: "Seconds measured, alone and then under the hogs.")
        var duration = 5.0

        @Option(help: "The name in the RESULT lines.")
        var name = "hostile"

        func validate() throws {
            guard hogs >= 0, requests > 0, hold ?? 1 > 0, connections > 0, duration > 0, warmup >= 0 else {
                throw ValidationError(
                    "hogs must not be negative; requests, hold, connections and duration must be positive"
                )
            }
        }

        func run() throws {
            FileLimits.raise()
            let users = try target.users(create: false)
            let runner = LoadRunner(
                endpoint: try target.endpoint(),
                users: users,
                connections: connections,
                depth: 1,
                warmup: warmup,
                duration: duration,
                stats: target.stats,
                tls: try target.tlsSettings()
            )
            var alone = try runner.run(.streak)
            alone.name = "\(name)-alone"
            print(alone.resultLine)
            let base = target.stats?.memoryMiB("VmRSS")
            let sampler = target.stats.map { MemorySampler(stats: $0) }
            let hogGroup = HogGroup(
                endpoint: try target.endpoint(),
                tls: try target.tlsSettings(),
                tokens: users.map(\.token),
                requests: requests,
                hold: hold ?? (warmup + duration + 10),
                reading: reading
            )
            hogGroup.start(count: hogs)
            var loaded = try runner.run(.streak)
            hogGroup.stop()
            let peak = sampler?.stop()
            loaded.name = name
            let bound = Double(hogs * maxPendingOutputBytes) / 1_048_576
            print(
                loaded.resultLine
                    + " hogs=\(hogs) reading=\(reading) hog_requests=\(hogGroup.sent) hog_connections=\(hogGroup.connected)"
                    + " rss_base_mib=\(base.map { String(format: "%.1f", $0) } ?? "-")"
                    + " rss_max_mib=\(peak.map { String(format: "%.1f", $0) } ?? "-")"
                    + " bound_mib=\(String(format: "%.1f", bound))"
            )
            for result in [alone, loaded] {
                if let error = result.firstError {
                    FileHandle.standardError.write(Data("\(result.name): first error: \(error)\n".utf8))
                }
            }
            if let error = hogGroup.firstError {
                FileHandle.standardError.write(Data("\(name): a hog failed to connect: \(error)\n".utf8))
            }
        }
    }
}

/// The largest resident memory of the server, sampled every 50 ms on a thread of its own.
final class MemorySampler: @unchecked Sendable {
    private let lock = NSLock()
    private var peak = 0.0
    private var running = true
    private let done = DispatchSemaphore(value: 0)

    init(stats: ServerProcessStats) {
        Thread.detachNewThread { [self] in
            while lock.withLock({ running }) {
                if let rss = stats.memoryMiB("VmRSS") { lock.withLock { peak = max(peak, rss) } }
                Thread.sleep(forTimeInterval: 0.05)
            }
            done.signal()
        }
    }

    /// Stops sampling. - Returns: the largest sample, MiB.
    func stop() -> Double {
        lock.withLock { running = false }
        done.wait()
        return lock.withLock { peak }
    }
}
