import ArgumentParser
import FoundationEssentials
import StreakPOSIX
import StreakServer

/// How much memory the users held by `streakd` may take.
struct MemoryOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The memory the users held in memory may take (env STREAKD_USER_MEMORY_BUDGET; default 256MiB).",
            discussion: """
                Bytes (1 or more), or a number with a unit: k/KiB, M/MiB, G/GiB (powers of 1024), or 'unlimited'. \
                Past it the least recently used users are evicted and loaded again from the store on \
                their next request; users with an open Watch stay. A budget smaller than one user \
                keeps no idle user: each request then loads its user from the store.
                """,
            valueName: "bytes"
        )
    )
    var userMemoryBudget: String?

    func validate() throws {
        if let userMemoryBudget { _ = try Self.parse(userMemoryBudget, source: "--user-memory-budget") }
    }

    /// The budget from the flag, then the environment, then the default; nil: unlimited.
    func budget(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Int? {
        if let userMemoryBudget { return try Self.parse(userMemoryBudget, source: "--user-memory-budget") }
        if let text = environment["STREAKD_USER_MEMORY_BUDGET"], !text.isEmpty {
            return try Self.parse(text, source: "STREAKD_USER_MEMORY_BUDGET")
        }
        return ServiceConfiguration.defaultUserMemoryBudget
    }

    /// Parses `256MiB`, `64M`, `1g`, `512k`, `1048576` or `unlimited`.
    static func parse(_ text: String, source: String) throws -> Int? {
        let trimmed = text.trimmingWhitespace().lowercased()
        if trimmed == "unlimited" || trimmed == "none" { return nil }
        let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
        let unit = trimmed.dropFirst(digits.count).trimmingWhitespace()
        let shifts: [String: Int] = [
            "": 0, "b": 0, "k": 10, "kb": 10, "kib": 10, "m": 20, "mb": 20, "mib": 20, "g": 30, "gb": 30, "gib": 30,
        ]
        // At most a pebibyte, which no machine has; keeps the shift from overflowing.
        guard !digits.isEmpty, let value = Int(digits), let shift = shifts[unit], value <= (1 << 50) >> shift else {
            throw ValidationError(
                "\(source) must be a number of bytes with an optional unit (k, M, G) or 'unlimited', not '\(text)'"
            )
        }
        // 0 would read as "no budget" in GetServerInfo, where 0 means none.
        guard value > 0 else {
            throw ValidationError(
                "\(source) of 0 bytes: give 1 to keep no idle user in memory, or 'unlimited' for no budget"
            )
        }
        return value << shift
    }
}
