import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads one line from a descriptor with a timeout (poll), without buffering past the newline.
enum LineReader {
    static func readLine(from descriptor: Int32, timeout: Duration) throws -> String {
        let deadline = ContinuousClock.now + timeout
        var bytes: [UInt8] = []
        while true {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { throw TestSupportError("timed out waiting for a line") }
            var descriptorSet = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000)
            let ready = poll(&descriptorSet, 1, max(1, milliseconds))
            if ready < 0 {
                if errno == EINTR { continue }
                throw TestSupportError("poll failed: errno \(errno)")
            }
            if ready == 0 { continue }
            var byte: UInt8 = 0
            let count = read(descriptor, &byte, 1)
            if count == 0 { throw TestSupportError("end of output before a full line: \(String(decoding: bytes, as: UTF8.self))") }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw TestSupportError("read failed: errno \(errno)")
            }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }
}

/// A value set once from another thread.
final class OnceValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    private var assigned = false

    init(_ value: Value) { stored = value }

    func set(_ value: Value) {
        lock.lock()
        stored = value
        assigned = true
        lock.unlock()
    }

    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return assigned }
    var value: Value { lock.lock(); defer { lock.unlock() }; return stored }
}
