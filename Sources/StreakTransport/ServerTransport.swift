import Dispatch
import FoundationEssentials
import Logging
import StreakFraming
import StreakPOSIX
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A failure to start listening.
public struct TransportError: Error, CustomStringConvertible, Sendable {
    /// What failed, with the system's reason.
    public var description: String
}

/// The Dispatch-driven TCP transport: accepts connections and feeds their requests to a handler.
///
/// `@unchecked Sendable`: what connections touch is in `registry`, a mutex; `loops` and
/// `connectionContext` are written once by `start()` before the first accept and only read
/// afterwards; the rest (the listener, the accept source, the sweeper, the refusal log) is
/// confined to `acceptQueue`.
public final class ServerTransport: @unchecked Sendable {
    private let configuration: TransportConfiguration
    private let handler: any RequestHandler
    private let logger: Logger
    private let acceptQueue = DispatchQueue(label: "streakd.accept")
    private var loops: [EventLoop] = []
    private var nextLoop = 0
    /// What connection queues touch too (a connection unregisters itself when it closes); the
    /// other state is confined to `acceptQueue`.
    private struct Registry {
        var connections: [ObjectIdentifier: Connection] = [:]
        /// Connections served since the start (open and closed).
        var served: UInt64 = 0
        /// How many connections each client address has.
        var perAddress: [String: Int] = [:]
        var drained: [@Sendable () -> Void] = []
        var shuttingDown = false
    }

    private let registry = Mutex(Registry())
    private var listener: Int32 = -1
    private var acceptSource: (any DispatchSourceRead)?
    private var sweeper: (any DispatchSourceTimer)?
    private var acceptPaused = false
    /// At most one log line about refused connections per 10 s. (Accept queue.)
    private var refusalLog = LogThrottle()
    /// What the connections share; made by `start()`.
    private var connectionContext: Connection.Context?
    private var finished = false

    /// Creates a transport; nothing happens until `start()`.
    public init(configuration: TransportConfiguration, handler: any RequestHandler, logger: Logger) {
        self.configuration = configuration
        self.handler = handler
        self.logger = logger
    }

    /// Open connections.
    public var connectionCount: Int { connectionCounts.open }

    /// The timers each event loop holds, request deadlines included (tests).
    var timerCounts: [Int] {
        get async {
            var counts: [Int] = []
            for loop in loops { counts.append(await loop.timerCount) }
            return counts
        }
    }

    /// The bytes of unfinished frames taken from the input budget now (tests).
    var unfinishedInputBytes: Int { connectionContext?.inputBudget.inUse ?? 0 }
    /// The unsent output the connections hold past their allowances (the output budget's use).
    var unsentOutputBytes: Int { connectionContext?.outputBudget.inUse ?? 0 }
    /// Request bytes in flight taken from the transport's budget now (past each connection's allowance).
    var budgetedRequestBytes: Int { connectionContext?.requestBudget.inUse ?? 0 }

    /// The open connections themselves (tests).
    var openConnections: [Connection] { registry.withLock { Array($0.connections.values) } }

    /// Open connections, and every connection served since the start (open or closed; not those
    /// refused at a connection limit).
    public var connectionCounts: (open: Int, served: UInt64) {
        registry.withLock { ($0.connections.count, $0.served) }
    }

    /// Binds, listens and starts accepting. - Returns: the bound port (the real one for port 0).
    /// - Throws: `TransportError` when the address cannot be bound.
    public func start() throws -> Int {
        signal(SIGPIPE, SIG_IGN)
        let (descriptor, port) = try Socket.listen(host: configuration.host, port: configuration.port)
        do {
            loops = try (0..<max(1, configuration.eventLoops)).map { try EventLoop(label: "streakd.loop.\($0)") }
        } catch {
            Glibc.close(descriptor)
            throw error
        }
        for loop in loops { loop.start() }
        connectionContext = Connection.Context(configuration: configuration, handler: handler, logger: logger) {
            [weak self] closed in self?.connectionClosed(closed)
        }
        listener = descriptor
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: acceptQueue)
        source.setEventHandler { [unowned self] in acceptAll() }
        source.setCancelHandler { Glibc.close(descriptor) }
        acceptSource = source
        source.activate()
        let timer = DispatchSource.makeTimerSource(queue: acceptQueue)
        timer.schedule(deadline: .now() + .seconds(1), repeating: .seconds(1), leeway: .milliseconds(250))
        timer.setEventHandler { [unowned self] in sweep() }
        sweeper = timer
        timer.activate()
        return port
    }

    /// Stops accepting, sends GOAWAY to every connection, lets in-flight requests finish within
    /// the grace period, closes everything and calls `completion`.
    public func shutdown(completion: @escaping @Sendable () -> Void) {
        acceptQueue.async { [self] in
            if finished {
                completion()
                return
            }
            let alreadyShuttingDown = registry.withLock { registry in
                registry.drained.append(completion)
                defer { registry.shuttingDown = true }
                return registry.shuttingDown
            }
            guard !alreadyShuttingDown else { return }
            acceptSource?.cancel()
            if acceptPaused { acceptSource?.resume() }
            sweeper?.cancel()
            let open = registry.withLock { Array($0.connections.values) }
            if open.isEmpty {
                finishShutdown()
                return
            }
            for connection in open { connection.drain() }
            acceptQueue.asyncAfter(deadline: .now() + .nanoseconds(Int(configuration.shutdownGracePeriod.nanoseconds)))
            { [self] in
                let stragglers = registry.withLock { Array($0.connections.values) }
                if !stragglers.isEmpty {
                    logger.warning(
                        "closing connections still busy after the grace period",
                        metadata: ["count": "\(stragglers.count)"]
                    )
                }
                for connection in stragglers { connection.closeSoon() }
            }
        }
    }

    /// On the accept queue: every connection is closed.
    private func finishShutdown() {
        guard !finished else { return }
        finished = true
        for loop in loops { loop.stop() }
        let completions = registry.withLock { registry -> [@Sendable () -> Void] in
            defer { registry.drained = [] }
            return registry.drained
        }
        for completion in completions { completion() }
    }

    private func acceptAll() {
        while true {
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let descriptor = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socket in
                    retryingOnInterrupt { accept(listener, socket, &length) }
                }
            }
            if descriptor < 0 {
                switch errno {
                case ECONNABORTED: continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    logger.warning("accept failed: out of descriptors or memory; pausing accepts for 100 ms")
                    pauseAccepting()
                default: break
                }
                return
            }
            Socket.configureAccepted(descriptor)
            let peer = Socket.numericHost(address)
            if let refusal = admissionRefusal(peer: peer) {
                logRefusal(refusal, peer: peer)
                if configuration.tls != nil {
                    // No GOAWAY can be said before a TLS handshake: the client sees the connection closed.
                    logger.debug("refused a TLS connection", metadata: ["reason": "\(refusal.message)"])
                    Glibc.close(descriptor)
                    continue
                }
                Socket.refuse(descriptor, status: refusal)
                continue
            }
            // Round robin: each loop serves its share of connections on one thread at a time.
            let loop = loops[nextLoop % loops.count]
            nextLoop &+= 1
            var tls: ConnectionTLS?
            if let credentials = configuration.tls {
                tls = ConnectionTLS(context: credentials.context)
                if tls == nil {
                    logger.warning("out of memory for a TLS session; closing a new connection")
                    Glibc.close(descriptor)
                    continue
                }
            }
            guard let connectionContext else { preconditionFailure("accepting before start()") }
            let connection = Connection(
                descriptor: descriptor,
                peer: peer,
                peerPort: Socket.port(address),
                tls: tls,
                loop: loop,
                context: connectionContext
            )
            registry.withLock {
                $0.connections[ObjectIdentifier(connection)] = connection
                $0.served += 1
                $0.perAddress[peer, default: 0] += 1
            }
            connection.start()
        }
    }

    /// Logs a refused connection at notice level: the first at once, later ones at most once per
    /// 10 s with how many were refused meanwhile (a flood of refusals is one line every 10 s, not
    /// one per connection). On the accept queue.
    private func logRefusal(_ refusal: Status, peer: String) {
        guard let refused = refusalLog.count(now: configuration.clock.nanoseconds) else { return }
        logger.notice(
            "refused a new connection",
            metadata: [
                "peer": "\(peer)", "reason": "\(refusal.message)",
                "refused": "\(refused) since the last such line",
            ]
        )
    }

    /// Why a new connection from `peer` cannot be served, or nil when it can. At the connection
    /// limit the idle connection (nothing in flight) whose last request is oldest is asked to close
    /// to make room; only when every connection is busy is the new one refused.
    private func admissionRefusal(peer: String) -> Status? {
        let (shuttingDown, count, fromPeer, open) = registry.withLock {
            (
                $0.shuttingDown, $0.connections.count, $0.perAddress[peer] ?? 0,
                $0.connections.count >= configuration.maxConnections ? Array($0.connections.values) : []
            )
        }
        if shuttingDown { return .shuttingDown }
        let perAddress = configuration.maxConnectionsPerAddress
        if perAddress > 0 && fromPeer >= perAddress {
            return Status(.resourceExhausted, "too many connections from \(peer) (limit \(perAddress) per address)")
        }
        guard count >= configuration.maxConnections else { return nil }
        let idle = open.filter { $0.isIdle && !$0.isClosingToMakeRoom.load(ordering: .relaxed) }
        guard
            let oldest = idle.min(by: {
                $0.lastRequest.load(ordering: .relaxed) < $1.lastRequest.load(ordering: .relaxed)
            })
        else {
            return Status(.resourceExhausted, "too many connections (limit \(configuration.maxConnections))")
        }
        oldest.isClosingToMakeRoom.store(true, ordering: .relaxed)
        logger.info(
            "closing the oldest idle connection to make room",
            metadata: ["limit": "\(configuration.maxConnections)"]
        )
        oldest.closeToMakeRoom()
        return nil
    }

    private func pauseAccepting() {
        guard !acceptPaused, let acceptSource else { return }
        acceptPaused = true
        acceptSource.suspend()
        acceptQueue.asyncAfter(deadline: .now() + .milliseconds(100)) { [self] in
            guard acceptPaused, !registry.withLock({ $0.shuttingDown }) else { return }
            acceptPaused = false
            self.acceptSource?.resume()
        }
    }

    private func connectionClosed(_ connection: Connection) {
        let finished = registry.withLock { registry -> Bool in
            if registry.connections.removeValue(forKey: ObjectIdentifier(connection)) != nil {
                registry.perAddress[connection.peer, default: 1] -= 1
                if registry.perAddress[connection.peer] == 0 { registry.perAddress[connection.peer] = nil }
            }
            return registry.shuttingDown && registry.connections.isEmpty
        }
        if finished { acceptQueue.async { [self] in finishShutdown() } }
    }

    /// Asks every connection whose handshake or idle timeout passed to close (run every second;
    /// tests that drive a `ManualClock` call it directly).
    func sweep() {
        let now = configuration.clock.nanoseconds
        let handshake = configuration.handshakeTimeout.nanoseconds
        let idle = configuration.idleTimeout.nanoseconds
        let open = registry.withLock { Array($0.connections.values) }
        for connection in open {
            let quiet = elapsedNanoseconds(from: connection.lastRequest.load(ordering: .relaxed), to: now)
            let handshakeExpired =
                !connection.handshakeDone.load(ordering: .relaxed)
                && elapsedNanoseconds(from: connection.acceptedAt, to: now) > handshake
            if quiet > idle || handshakeExpired {
                connection.closeIfExpired()
            }
        }
    }
}
