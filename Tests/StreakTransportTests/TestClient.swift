import Foundation
import StreakFraming
import StreakTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A blocking test client with a receive timeout, so no test can hang.
/// Unchecked: a test may write from one thread while it reads on another; nothing else is shared.
final class TestClient: @unchecked Sendable {
    let descriptor: Int32
    private var decoder = FrameDecoder(expectsPreface: true)

    /// - Parameter receiveBuffer: SO_RCVBUF in bytes, set before connecting (the window depends on
    ///   it); nil leaves the kernel's autotuning.
    init(port: Int, sendPreface: Bool = true, receiveBuffer: Int? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if let receiveBuffer { TestSocket.setBuffer(SO_RCVBUF, of: descriptor, bytes: receiveBuffer) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else { throw TestError("connect failed: \(String(cString: strerror(errno)))") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if sendPreface { try write(Preface.bytes) }
    }

    private var closed = false
    /// Held by a write, and by the close, which must not pull the descriptor from under a write.
    private let writing = NSLock()

    deinit { if !closed { close(descriptor) } }

    /// Closes with an RST instead of a FIN (SO_LINGER 0), the way a crashed peer looks.
    func reset() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        closeDescriptor()
    }

    /// Closes normally (FIN), without reading what the server sent.
    func abandon() {
        closeDescriptor()
    }

    /// Closes the descriptor once no other thread writes to it; a writer blocked on a full socket
    /// is woken by a shutdown first. Closed under a writer, its next send would go to whatever
    /// socket the test process opened next under the same number: a Watch test once read a GOAWAY
    /// for a "frame of 84215045 bytes", four of another test's 0x05 bytes.
    private func closeDescriptor() {
        if !writing.try() {
            shutdown(descriptor, Int32(SHUT_RDWR))
            writing.lock()
        }
        defer { writing.unlock() }
        close(descriptor)
        closed = true
    }

    /// Stops sending (half-close); the server's answers can still be read.
    func finishSending() { shutdown(descriptor, Int32(SHUT_WR)) }

    func write(_ bytes: [UInt8]) throws {
        writing.lock()
        defer { writing.unlock() }
        guard !closed else { throw TestError("send after the client closed its socket") }
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw TestError("send failed: \(String(cString: strerror(errno)))") }
            offset += sent
        }
    }

    func send(_ frame: Frame) throws { try write(FrameEncoder.encode(frame)) }

    func request(_ id: UInt32, _ method: String, _ message: [UInt8] = [], metadata: [MetadataEntry] = []) throws {
        try send(.request(id: id, method: method, metadata: metadata, message: message))
    }

    /// The next frame, or nil at end of stream.
    func next() throws -> Frame? {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let frame = try decoder.next() { return frame }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 { return nil }
            guard count > 0 else { throw TestError("recv failed or timed out: \(String(cString: strerror(errno)))") }
            decoder.append(contentsOf: buffer[0..<count])
        }
    }

    /// Frames until end of stream.
    func remainingFrames() throws -> [Frame] {
        var frames: [Frame] = []
        while let frame = try next() { frames.append(frame) }
        return frames
    }
}

struct TestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Waits (at most `seconds`) until `condition` holds. - Returns: whether it did.
func waitUntil(seconds: Double = 5, _ condition: () -> Bool) -> Bool {
    let end = Date().addingTimeInterval(seconds)
    while Date() < end {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return condition()
}
