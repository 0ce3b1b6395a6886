#if canImport(Glibc)
import Glibc
#endif

/// Calls `body` again for as long as it fails with EINTR (a signal arrived during the call): the
/// one retry loop of the project's system calls (`recv`, `send`, `poll`, `accept`), in the manner
/// of NIOPosix's `syscall(blocking:)` and swift-system's `valueOrErrno(retryOnInterrupt:)`.
/// - Returns: what the last call returned; when it is negative, `errno` is that call's error.
@inlinable
public func retryingOnInterrupt<Result: SignedInteger>(_ body: () -> Result) -> Result {
    while true {
        let result = body()
        if result < 0 && errno == EINTR { continue }
        return result
    }
}
