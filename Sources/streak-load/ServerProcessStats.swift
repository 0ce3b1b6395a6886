import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads a server process's CPU time and memory from /proc (Linux).
struct ServerProcessStats: Sendable {
    let pid: Int32
    /// The file in which scripts/malloc-count.c, preloaded into the server, counts its heap
    /// allocations (the first 8 bytes, little-endian); nil when not counting.
    var allocationCountFile: String? = nil

    /// Heap allocations the server made so far, when it runs with the counting library.
    func allocations() -> UInt64? {
        guard let allocationCountFile else { return nil }
        let descriptor = open(allocationCountFile, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var count: UInt64 = 0
        guard pread(descriptor, &count, 8, 0) == 8 else { return nil }
        return UInt64(littleEndian: count)
    }

    /// The CPU time a process consumed so far, in microseconds: in user mode (its own code and
    /// its libraries) and in the kernel on its behalf (system calls, and on loopback the delivery
    /// of what it sends).
    struct CPUTime: Sendable {
        var user: Double
        var system: Double
        var total: Double { user + system }
    }

    /// The server's CPU time so far; nil when /proc cannot be read.
    func cpuTime() -> CPUTime? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let closing = stat.lastIndex(of: ")")
        else { return nil }
        // Fields after "pid (comm)": state is field 3; utime and stime are fields 14 and 15.
        let fields = stat[stat.index(after: closing)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        let microsecondsPerTick = 1_000_000 / Double(sysconf(Int32(_SC_CLK_TCK)))
        return CPUTime(user: user * microsecondsPerTick, system: system * microsecondsPerTick)
    }

    /// A `/proc/PID/status` memory field such as `VmRSS` or `VmHWM`, in MiB.
    func memoryMiB(_ field: String) -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            if parts.count >= 2, let kib = Double(parts[1]) { return kib / 1024 }
        }
        return nil
    }
}
