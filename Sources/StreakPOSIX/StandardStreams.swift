#if canImport(Glibc)
import Glibc
#endif

/// Writing to the standard streams and reading whole files with the system's own calls and
/// error texts (what `FileHandle` did, without swift-corelibs-foundation).
public enum StandardStreams {
    /// Writes `text` to standard output, all of it (short writes and EINTR retried).
    public static func writeOutput(_ text: String) {
        write(text, to: STDOUT_FILENO)
    }

    /// Writes `text` to standard error, all of it.
    public static func writeError(_ text: String) {
        write(text, to: STDERR_FILENO)
    }

    /// Writes `text` to `descriptor`, all of it unless the descriptor fails.
    public static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { buffer in
                retryingOnInterrupt { Glibc.write(descriptor, buffer.baseAddress, buffer.count) }
            }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Everything readable from `descriptor` until its end.
    /// - Throws: the system's text for the failing read (`Is a directory`, `Input/output error`).
    public static func readToEnd(_ descriptor: Int32) throws(SystemError) -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in
                retryingOnInterrupt { read(descriptor, buffer.baseAddress, buffer.count) }
            }
            if count == 0 { return result }
            guard count > 0 else { throw SystemError(errno: errno) }
            result.append(contentsOf: chunk[..<count])
        }
    }
}

/// A failed system call's `errno`, described in the system's words.
public struct SystemError: Error, CustomStringConvertible, Sendable {
    /// The error number.
    public let errno: Int32

    /// The error of number `errno`.
    public init(errno: Int32) {
        self.errno = errno
    }

    /// `strerror(3)`'s text, such as "No such file or directory".
    public var description: String { String(cString: strerror(errno)) }
}

/// `bytes` in the largest binary unit it reaches: `(3.4, "KiB")` for 3,482 bytes, unit nil below
/// 1 KiB (then the value is the bytes themselves).
public func binaryUnit(_ bytes: UInt64) -> (value: Double, unit: String?) {
    let units = ["KiB", "MiB", "GiB", "TiB"]
    guard bytes >= 1024 else { return (Double(bytes), nil) }
    var value = Double(bytes) / 1024
    var unit = 0
    while value >= 1024 && unit < units.count - 1 {
        value /= 1024
        unit += 1
    }
    return (value, units[unit])
}

/// `value` with `places` decimals, rounded half away from zero ("%.2f" without Foundation).
public func decimalText(_ value: Double, places: Int) -> String {
    guard value.isFinite else { return "\(value)" }
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    guard scaled < 9e18 else { return "\(value)" }
    let units = Int(scaled)
    let digits = String(units)
    let padded = String(repeating: "0", count: max(0, places + 1 - digits.count)) + digits
    let sign = value < 0 && units != 0 ? "-" : ""
    guard places > 0 else { return sign + padded }
    return sign + padded.dropLast(places) + "." + padded.suffix(places)
}
