import Foundation
import StreakFraming

#if canImport(Glibc)
import Glibc
#endif

/// A scripted streakd stand-in on 127.0.0.1:0 for what a real server will not do on demand:
/// stay silent past a deadline, or send GOAWAY. Each accepted connection runs `script`
/// (with the connection's index) on its own thread with the decoded frames.
public final class FakeServer: @unchecked Sendable {
    /// The port it listens on.
    public let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var received: [Frame] = []
    private var connections: [Int32] = []
    private var accepted = 0
    private var listenerOpen = true

    /// What the script can do with one connection.
    public struct Peer {
        /// The connection's socket.
        public let descriptor: Int32
        /// Sends one frame (errors ignored: the client may be gone).
        public func send(_ frame: Frame) {
            let bytes = FrameEncoder.encode(frame)
            _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
    }

    /// Starts listening on 127.0.0.1:0.
    /// - Throws: when the socket cannot be bound or listened on.
    public init(script: @escaping @Sendable (_ index: Int, _ frame: Frame, _ peer: Peer) -> Void) throws {
        let (descriptor, port) = try LoopbackSocket.bindEphemeral()
        guard listen(descriptor, 16) == 0 else {
            Glibc.close(descriptor)
            throw CancellationError()
        }
        listener = descriptor
        self.port = port
        let listener = descriptor
        Thread { [self] in
            var index = 0
            while true {
                let descriptor = accept(listener, nil, nil)
                if descriptor < 0 {
                    lock.withLock {  // closed only here, under the lock: see stop()
                        listenerOpen = false
                        Glibc.close(listener)
                    }
                    return
                }
                lock.withLock {
                    connections.append(descriptor)
                    accepted += 1
                }
                let connectionIndex = index
                index += 1
                Thread { [self] in serve(descriptor, index: connectionIndex, script: script) }.start()
            }
        }.start()
    }

    private func serve(_ descriptor: Int32, index: Int, script: (Int, Frame, Peer) -> Void) {
        let peer = Peer(descriptor: descriptor)
        _ = Preface.bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var decoder = FrameDecoder(expectsPreface: true)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 {
                lock.withLock {  // closed only here, under the lock: see stop()
                    connections.removeAll { $0 == descriptor }
                    Glibc.close(descriptor)
                }
                return
            }
            decoder.append(contentsOf: buffer[0..<count])
            while let frame = try? decoder.next() {
                lock.withLock { received.append(frame) }
                script(index, frame, peer)
            }
        }
    }

    /// Every frame received so far, in order.
    public var frames: [Frame] { lock.withLock { received } }

    /// How many connections were accepted.
    public var connectionCount: Int { lock.withLock { accepted } }

    /// Stops listening and ends every connection.
    ///
    /// Only shuts the sockets down: the thread blocked on each one wakes up and closes it. Closing
    /// here instead would let that thread's next `recv` or `accept` land on a descriptor number
    /// another test had just been given, and steal its bytes (tests run in parallel).
    /// The lock makes sure no descriptor is shut down after its owner closed it.
    public func stop() {
        lock.withLock {
            if listenerOpen { Glibc.shutdown(listener, Int32(SHUT_RDWR)) }
            for descriptor in connections { Glibc.shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
    }
}
