import Foundation
import Histogram
import StreakFraming

/// What one scenario measured.
struct ScenarioResult: Sendable {
    var name: String
    var connections: Int
    var depth: Int
    var requests: UInt64
    var errors: UInt64
    var seconds: Double
    var latencyMicroseconds: Histogram<UInt64>
    var serverCPUMicroseconds: Double?
    var serverPeakRSSMiB: Double?
    var firstError: String?

    /// The machine-readable line scripts/bench parses.
    var resultLine: String {
        func ms(_ percentile: Double) -> String {
            String(format: "%.3f", Double(latencyMicroseconds.valueAtPercentile(percentile)) / 1000)
        }
        let rps = seconds > 0 ? Double(requests) / seconds : 0
        let cpu =
            serverCPUMicroseconds.map { requests > 0 ? String(format: "%.1f", $0 / Double(requests)) : "-" } ?? "-"
        let rss = serverPeakRSSMiB.map { String(format: "%.1f", $0) } ?? "-"
        return "RESULT name=\(name) connections=\(connections) depth=\(depth) requests=\(requests) "
            + "rps=\(Int(rps)) p50=\(ms(50)) p99=\(ms(99)) p999=\(ms(99.9)) errors=\(errors) cpu_us=\(cpu) rss_mib=\(rss)"
    }
}

/// Drives one scenario: one thread per connection, `depth` requests in flight on each.
struct LoadRunner {
    var endpoint: ServerEndpoint
    var users: [BenchUser]
    var connections: Int
    var depth: Int
    var warmup: Double
    var duration: Double
    var stats: ServerProcessStats?

    func run(_ scenario: ScenarioName) throws(LoadError) -> ScenarioResult {
        var sockets: [LoadConnection] = []
        for _ in 0..<connections { sockets.append(try LoadConnection(address: endpoint)) }
        let start = MonotonicClock.now() + UInt64(warmup * 1e9)
        let end = start + UInt64(duration * 1e9)
        let collector = ResultCollector()
        let finished = DispatchGroup()
        for (index, socket) in sockets.enumerated() {
            let user = users[index % users.count]
            let firstKey = (index / users.count) * depth
            let mixes = (0..<depth).map { RequestMix(scenario: scenario, user: user, key: firstKey + $0) }
            let worker = Worker(connection: socket, mixes: mixes, window: start..<end)
            finished.enter()
            let thread = Thread {
                collector.add(worker.run())
                finished.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        MonotonicClock.sleep(until: start)
        let cpuBefore = stats?.cpuMicroseconds()
        MonotonicClock.sleep(until: end)
        let cpuAfter = stats?.cpuMicroseconds()
        finished.wait()
        var result = collector.result(
            name: scenario.rawValue,
            connections: connections,
            depth: depth,
            seconds: duration
        )
        if let cpuBefore, let cpuAfter { result.serverCPUMicroseconds = cpuAfter - cpuBefore }
        result.serverPeakRSSMiB = stats?.memoryMiB("VmHWM")
        return result
    }
}

/// One connection's loop: keep `mixes.count` requests in flight until the window closes.
private struct Worker: @unchecked Sendable {
    let connection: LoadConnection
    var mixes: [RequestMix]
    let window: Range<UInt64>

    func run() -> WorkerResult {
        var mixes = self.mixes
        var result = WorkerResult()
        let depth = mixes.count
        var sentAt = [UInt64](repeating: 0, count: depth)
        var output: [UInt8] = []
        do {
            for slot in 0..<depth {
                mixes[slot].next().appendFrame(id: UInt32(slot + 1), to: &output)
                sentAt[slot] = MonotonicClock.now()
            }
            try connection.send(output)
            var outstanding = depth
            while outstanding > 0 {
                let frame = try connection.nextFrame()
                guard case .response(let id, let status, _) = frame else {
                    if case .goAway(_, let status) = frame { throw LoadError("GOAWAY: \(status)") }
                    continue
                }
                let now = MonotonicClock.now()
                let slot = Int((id - 1) % UInt32(depth))
                if window.contains(now) {
                    result.requests += 1
                    _ = result.latency.record((now - sentAt[slot]) / 1000)
                    if status.code != .ok {
                        result.errors += 1
                        if result.firstError == nil { result.firstError = "\(status)" }
                    }
                }
                guard now < window.upperBound else {
                    outstanding -= 1
                    continue
                }
                output.removeAll(keepingCapacity: true)
                mixes[slot].next().appendFrame(id: id &+ UInt32(depth), to: &output)
                sentAt[slot] = MonotonicClock.now()
                try connection.send(output)
            }
        } catch {
            result.errors += 1
            result.firstError = result.firstError ?? "\(error)"
        }
        return result
    }
}

/// Counts and latencies of one worker.
private struct WorkerResult: Sendable {
    var requests: UInt64 = 0
    var errors: UInt64 = 0
    var latency = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
    var firstError: String?
}

/// Gathers worker results from their threads.
private final class ResultCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var combined = WorkerResult()

    func add(_ result: WorkerResult) {
        lock.withLock {
            combined.requests += result.requests
            combined.errors += result.errors
            combined.latency.add(result.latency)
            combined.firstError = combined.firstError ?? result.firstError
        }
    }

    func result(name: String, connections: Int, depth: Int, seconds: Double) -> ScenarioResult {
        lock.withLock {
            ScenarioResult(
                name: name,
                connections: connections,
                depth: depth,
                requests: combined.requests,
                errors: combined.errors,
                seconds: seconds,
                latencyMicroseconds: combined.latency,
                firstError: combined.firstError
            )
        }
    }
}

/// Monotonic time in nanoseconds.
enum MonotonicClock {
    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    static func sleep(until deadline: UInt64) {
        let current = now()
        if deadline > current { usleep(useconds_t((deadline - current) / 1000)) }
    }
}
