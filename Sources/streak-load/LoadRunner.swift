import Foundation
import Histogram
import StreakFraming
import StreakPOSIX

/// What one scenario measured.
struct ScenarioResult: Sendable {
    var name: String
    var connections: Int
    var depth: Int
    var requests: UInt64
    var errors: UInt64
    var seconds: Double
    var latencyMicroseconds: Histogram<UInt64>
    /// The server's CPU time in the window (user plus system), in microseconds.
    var serverCPUMicroseconds: Double?
    /// The user-mode part of it: the server's own code, without the kernel's work for it.
    var serverUserCPUMicroseconds: Double?
    /// Heap allocations the server made in the window (when it counts them).
    var serverAllocations: UInt64?
    var serverPeakRSSMiB: Double?
    var firstError: String?

    /// The machine-readable line scripts/bench parses.
    var resultLine: String {
        func ms(_ percentile: Double) -> String {
            String(format: "%.3f", Double(latencyMicroseconds.valueAtPercentile(percentile)) / 1000)
        }
        let rps = seconds > 0 ? Double(requests) / seconds : 0
        func perRequest(_ total: Double?) -> String {
            total.map { requests > 0 ? String(format: "%.1f", $0 / Double(requests)) : "-" } ?? "-"
        }
        let rss = serverPeakRSSMiB.map { String(format: "%.1f", $0) } ?? "-"
        return "RESULT name=\(name) connections=\(connections) depth=\(depth) requests=\(requests) "
            + "rps=\(Int(rps)) p50=\(ms(50)) p99=\(ms(99)) p999=\(ms(99.9)) errors=\(errors) "
            + "cpu_us=\(perRequest(serverCPUMicroseconds)) user_us=\(perRequest(serverUserCPUMicroseconds)) "
            // `{ Double($0) }`, not `Double.init`: that reference takes a UInt64 as a bit pattern.
            + "rss_mib=\(rss) allocs=\(perRequest(serverAllocations.map { Double($0) }))"
    }
}

/// Drives one scenario from one thread: every connection non-blocking under one poll(2) loop,
/// `depth` requests in flight on each. One thread, like redis-benchmark, so that the client's
/// own wake-ups do not take the CPU the server is measured on (client and server share the cores).
struct LoadRunner {
    var endpoint: ServerEndpoint
    var users: [BenchUser]
    var connections: Int
    var depth: Int
    var warmup: Double
    var duration: Double
    var stats: ServerProcessStats?
    /// TLS for every connection, or nil for plaintext.
    var tls: LoadTLS?
    /// Requests per second over all connections (open loop: each slot sends on a schedule, or
    /// as soon as its answer came when it is late); nil: each slot sends as soon as its answer came.
    var rate: Double? = nil
    /// Added to every slot's key, so that two runs against servers sharing users write other days.
    var keyOffset = 0

    /// How long after the window requests still in flight may take before they count as errors.
    static let drainTimeout: UInt64 = 10_000_000_000

    func run(_ scenario: ScenarioName) throws(LoadError) -> ScenarioResult {
        var drivers = try connectDrivers(scenario)
        let start = MonotonicClock.now() + UInt64(warmup * 1e9)
        let end = start + UInt64(duration * 1e9)
        var result = WorkerResult()
        var before: ServerSample?
        var after: ServerSample?
        var polls = drivers.map { pollfd(fd: $0.connection.fileDescriptor, events: Int16(POLLIN), revents: 0) }
        for index in drivers.indices { drivers[index].start(result: &result) }
        var active = drivers.count
        while active > 0 {
            let now = MonotonicClock.now()
            if before == nil && now >= start { before = ServerSample(stats) }
            if after == nil && now >= end { after = ServerSample(stats) }
            if now >= end + Self.drainTimeout {
                result.fail("\(active) connections still had requests in flight 10 s after the window")
                break
            }
            var timeout: Int32 = 100
            if rate != nil {
                for index in drivers.indices where polls[index].fd >= 0 {
                    drivers[index].sendDue(now: now, window: start..<end, result: &result)
                    if drivers[index].finished {
                        polls[index].fd = -1
                        active -= 1
                        continue
                    }
                    if let due = drivers[index].nextDue {
                        timeout = min(timeout, Int32(clamping: due > now ? (due - now + 999_999) / 1_000_000 : 0))
                    }
                    polls[index].events = Int16(POLLIN) | (drivers[index].hasUnsentOutput ? Int16(POLLOUT) : 0)
                }
            }
            let ready = retryingOnInterrupt { poll(&polls, nfds_t(polls.count), timeout) }
            if ready < 0 { throw .system("poll") }
            guard ready > 0 else { continue }
            for index in polls.indices where polls[index].revents != 0 && polls[index].fd >= 0 {
                drivers[index].service(window: start..<end, result: &result)
                if drivers[index].finished {
                    polls[index].fd = -1
                    active -= 1
                } else {
                    polls[index].events = Int16(POLLIN) | (drivers[index].hasUnsentOutput ? Int16(POLLOUT) : 0)
                }
                polls[index].revents = 0
            }
        }
        return summary(of: scenario, result, before: before, after: after ?? ServerSample(stats))
    }

    /// A connection per driver, each with `depth` request slots; the users taken in turn.
    private func connectDrivers(_ scenario: ScenarioName) throws(LoadError) -> [ConnectionDriver] {
        var drivers: [ConnectionDriver] = []
        for index in 0..<connections {
            let user = users[index % users.count]
            let firstKey = keyOffset + (index / users.count) * depth
            let mixes = (0..<depth).map { RequestMix(scenario: scenario, user: user, key: firstKey + $0) }
            let interval = rate.map { UInt64(Double(connections * depth) / $0 * 1e9) }
            drivers.append(
                ConnectionDriver(
                    connection: try LoadConnection(address: endpoint, tls: tls),
                    mixes: mixes,
                    interval: interval
                )
            )
        }
        return drivers
    }

    /// The server's CPU time and allocations at one edge of the window (nil without `stats`).
    private struct ServerSample {
        var cpu: ServerProcessStats.CPUTime?
        var allocations: UInt64?

        init(_ stats: ServerProcessStats?) {
            cpu = stats?.cpuTime()
            allocations = stats?.allocations()
        }
    }

    /// The scenario's result: what the connections measured, and what the server spent between
    /// the window's edges.
    private func summary(
        of scenario: ScenarioName,
        _ result: WorkerResult,
        before: ServerSample?,
        after: ServerSample
    ) -> ScenarioResult {
        var summary = ScenarioResult(
            name: scenario.rawValue,
            connections: connections,
            depth: depth,
            requests: result.requests,
            errors: result.errors,
            seconds: duration,
            latencyMicroseconds: result.latency,
            firstError: result.firstError
        )
        if let cpuBefore = before?.cpu, let cpuAfter = after.cpu {
            summary.serverCPUMicroseconds = cpuAfter.total - cpuBefore.total
            summary.serverUserCPUMicroseconds = cpuAfter.user - cpuBefore.user
        }
        if let allocationsBefore = before?.allocations, let allocationsAfter = after.allocations {
            summary.serverAllocations = allocationsAfter &- allocationsBefore
        }
        summary.serverPeakRSSMiB = stats?.memoryMiB("VmHWM")
        return summary
    }
}

/// One connection of the event loop: keeps `mixes.count` requests in flight until the window closes.
private struct ConnectionDriver {
    let connection: LoadConnection
    var mixes: [RequestMix]
    /// Nanoseconds between a slot's sends, when paced.
    private let interval: UInt64?
    /// When each slot is due to send next (paced).
    private var dueAt: [UInt64]
    /// The slots whose answer came before they were due: they send at `dueAt`.
    private var waiting: [Int] = []
    private var sentAt: [UInt64]
    private var output: [UInt8] = []
    private var outputOffset = 0
    private var outstanding = 0
    /// Each waiting slot's next request id.
    private var nextID: [Int: UInt32] = [:]
    /// True once every request got its answer after the window, or the connection failed.
    private(set) var finished = false

    init(connection: LoadConnection, mixes: [RequestMix], interval: UInt64? = nil) {
        self.connection = connection
        self.mixes = mixes
        self.interval = interval
        sentAt = [UInt64](repeating: 0, count: mixes.count)
        dueAt = [UInt64](repeating: MonotonicClock.now(), count: mixes.count)
    }

    /// The earliest time a waiting slot is due to send (paced runs).
    var nextDue: UInt64? { waiting.map { dueAt[$0] }.min() }

    /// Sends the requests of the waiting slots that are due (paced runs); after the window, they end.
    mutating func sendDue(now: UInt64, window: Range<UInt64>, result: inout WorkerResult) {
        guard !waiting.isEmpty else { return }
        if now >= window.upperBound {
            outstanding -= waiting.count
            waiting.removeAll()
            if outstanding == 0 { finished = true }
            return
        }
        let due = waiting.filter { dueAt[$0] <= now }
        guard !due.isEmpty else { return }
        waiting.removeAll { dueAt[$0] <= now }
        for slot in due { enqueue(slot: slot, id: nextID[slot] ?? UInt32(slot + 1)) }
        flush(result: &result)
    }

    var hasUnsentOutput: Bool { outputOffset < output.count || connection.hasPendingOutput }

    /// Sends the first request of every slot.
    mutating func start(result: inout WorkerResult) {
        connection.makeNonBlocking()
        for slot in mixes.indices { enqueue(slot: slot, id: UInt32(slot + 1)) }
        outstanding = mixes.count
        flush(result: &result)
    }

    /// Reads what arrived, records each answer and sends the slot's next request.
    mutating func service(window: Range<UInt64>, result: inout WorkerResult) {
        do {
            try connection.receiveAvailable()
            while let frame = try connection.bufferedFrame() {
                guard case .response(let id, let status, _) = frame else {
                    if case .goAway(_, let status) = frame { throw LoadError("GOAWAY: \(status)") }
                    continue
                }
                let now = MonotonicClock.now()
                let slot = Int((id - 1) % UInt32(mixes.count))
                if window.contains(now) {
                    result.requests += 1
                    _ = result.latency.record((now - sentAt[slot]) / 1000)
                    if status.code != .ok { result.fail("\(status)") }
                }
                if now >= window.upperBound {
                    outstanding -= 1
                } else if let interval {
                    // Open loop: due one interval after the last due time; a slot more than a
                    // second behind its schedule starts a new one instead of sending a burst.
                    dueAt[slot] = max(dueAt[slot] &+ interval, now > 1_000_000_000 ? now - 1_000_000_000 : 0)
                    if dueAt[slot] <= now {
                        enqueue(slot: slot, id: id &+ UInt32(mixes.count))
                    } else {
                        nextID[slot] = id &+ UInt32(mixes.count)
                        waiting.append(slot)
                    }
                } else {
                    enqueue(slot: slot, id: id &+ UInt32(mixes.count))
                }
            }
        } catch {
            result.fail("\(error)")
            finished = true
            return
        }
        flush(result: &result)
        if outstanding == 0 { finished = true }
    }

    private mutating func enqueue(slot: Int, id: UInt32) {
        if outputOffset == output.count {
            output.removeAll(keepingCapacity: true)
            outputOffset = 0
        }
        mixes[slot].next().appendFrame(id: id, to: &output)
        sentAt[slot] = MonotonicClock.now()
    }

    private mutating func flush(result: inout WorkerResult) {
        guard hasUnsentOutput else { return }
        do {
            outputOffset = try connection.sendSome(output, from: outputOffset)
        } catch {
            result.fail("\(error)")
            finished = true
        }
    }
}

/// Counts and latencies of a run.
private struct WorkerResult: Sendable {
    var requests: UInt64 = 0
    var errors: UInt64 = 0
    var latency = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
    var firstError: String?

    /// Counts an error, keeping the first one's text.
    mutating func fail(_ description: String) {
        errors += 1
        firstError = firstError ?? description
    }
}

/// Monotonic time in nanoseconds.
enum MonotonicClock {
    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}
