import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A TCP proxy on 127.0.0.1 in front of a real server (a test PostgreSQL) that can freeze: while
/// frozen it forwards nothing in either direction, and connections made meanwhile are accepted and
/// then never answered, which is what a client of a hung database host sees (a stopped server's
/// kernel still acknowledges every packet). Thawed, it forwards again what waited.
public final class FreezableProxy: @unchecked Sendable {
    /// The proxy's port.
    public let port: Int
    private let listener: Int32
    private let targetPort: Int
    private let state = Mutex((frozen: false, stopped: false, sockets: [Int32]()))
    private let threads = DispatchGroup()

    /// Starts a proxy to 127.0.0.1:`targetPort`.
    /// - Throws: `TestSupportError` when the socket cannot be bound.
    public init(targetPort: Int) throws {
        self.targetPort = targetPort
        (listener, port) = try LoopbackSocket.bindEphemeral()
        Glibc.listen(listener, 64)
        spawn { [self] in acceptLoop() }
    }

    /// A PostgreSQL URL of the form `postgresql://user@127.0.0.1:PORT/db` with the proxy's port.
    /// - Throws: `TestSupportError` when `url` names no `127.0.0.1:PORT`.
    public static func start(for url: String) throws -> (proxy: FreezableProxy, url: String) {
        guard let host = url.range(of: "@127.0.0.1:"), let slash = url[host.upperBound...].firstIndex(of: "/"),
            let target = Int(url[host.upperBound..<slash])
        else { throw TestSupportError("not a 127.0.0.1 URL: \(url)") }
        let proxy = try FreezableProxy(targetPort: target)
        return (proxy, String(url[..<host.upperBound]) + "\(proxy.port)" + String(url[slash...]))
    }

    deinit {
        stop()
    }

    /// Stops forwarding (and answering new connections) until `thaw()`.
    public func freeze() { state.withLock { $0.frozen = true } }

    /// Forwards again.
    public func thaw() { state.withLock { $0.frozen = false } }

    /// Closes every connection and the listening socket; waits for the threads (bounded).
    public func stop() {
        let sockets = state.withLock { state -> [Int32]? in
            guard !state.stopped else { return nil }
            state.stopped = true
            return state.sockets
        }
        guard let sockets else { return }
        for socket in sockets { shutdown(socket, Int32(SHUT_RDWR)) }
        _ = threads.wait(timeout: .now() + 5)
        for socket in sockets { Glibc.close(socket) }
        Glibc.close(listener)
    }

    private var stopped: Bool { state.withLock { $0.stopped } }
    private var frozen: Bool { state.withLock { $0.frozen } }

    private func spawn(_ body: @escaping @Sendable () -> Void) {
        threads.enter()
        Thread.detachNewThread { [threads] in
            body()
            threads.leave()
        }
    }

    private func acceptLoop() {
        while !stopped {
            var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 50) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            let server = Self.connect(to: targetPort)
            guard server >= 0 else {
                Glibc.close(client)
                continue
            }
            let registered = state.withLock { state -> Bool in
                guard !state.stopped else { return false }
                state.sockets += [client, server]
                return true
            }
            guard registered else {
                Glibc.close(client)
                Glibc.close(server)
                return
            }
            spawn { [self] in pump(client, server) }
        }
    }

    /// Copies bytes both ways until either side closes or the proxy stops; nothing while frozen.
    private func pump(_ client: Int32, _ server: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !stopped {
            if frozen {
                usleep(20_000)
                continue
            }
            var descriptors = [
                pollfd(fd: client, events: Int16(POLLIN), revents: 0),
                pollfd(fd: server, events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&descriptors, 2, 50) > 0 else { continue }
            // Checked again: a freeze that came during the poll holds what arrived.
            if frozen { continue }
            for (index, descriptor) in descriptors.enumerated() where descriptor.revents != 0 {
                let from = index == 0 ? client : server
                let to = index == 0 ? server : client
                let count = read(from, &buffer, buffer.count)
                guard count > 0, Self.writeAll(to, buffer, count) else {
                    shutdown(client, Int32(SHUT_RDWR))
                    shutdown(server, Int32(SHUT_RDWR))
                    return
                }
            }
        }
    }

    private static func writeAll(_ descriptor: Int32, _ buffer: [UInt8], _ count: Int) -> Bool {
        var written = 0
        while written < count {
            // MSG_NOSIGNAL: a side that closed is an error here, not a SIGPIPE that ends the test process.
            let result = buffer.withUnsafeBytes {
                send(descriptor, $0.baseAddress! + written, count - written, Int32(MSG_NOSIGNAL))
            }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { return false }
            written += result
        }
        return true
    }

    private static func connect(to port: Int) -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return -1 }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            Glibc.close(descriptor)
            return -1
        }
        return descriptor
    }
}
