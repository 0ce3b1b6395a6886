#if canImport(Glibc)
import Glibc
#endif

/// Process resource limits `streakd` adjusts at start.
enum ResourceLimits {
    /// Raises the soft open-file limit to the hard limit so that thousands of connections fit.
    /// - Returns: the soft limit now in force.
    @discardableResult
    static func raiseOpenFileLimit() -> UInt64 {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { return UInt64(raised.rlim_cur) }
        }
        return UInt64(limit.rlim_cur)
    }
}
