import Foundation

/// Read buffers lent to connections for one read burst, so idle connections hold none.
final class ReadBufferPool: @unchecked Sendable {
    /// The size of each buffer.
    static let bufferSize = 64 * 1024
    static let shared = ReadBufferPool()

    private let lock = NSLock()
    private var free: [UnsafeMutableRawBufferPointer] = []

    func take() -> UnsafeMutableRawBufferPointer {
        if let buffer = lock.withLock({ free.popLast() }) { return buffer }
        return .allocate(byteCount: Self.bufferSize, alignment: 16)
    }

    func give(_ buffer: UnsafeMutableRawBufferPointer) {
        let keep = lock.withLock { () -> Bool in
            guard free.count < 16 else { return false }
            free.append(buffer)
            return true
        }
        if !keep { buffer.deallocate() }
    }
}
