import Dispatch
import FoundationEssentials
import Logging
import StreakFraming
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One client connection, served on its event loop's thread.
///
/// Reads are handled in bursts: what is readable is read and the complete frames handled
/// inline, within a per-turn budget (`maxReadBytesPerTurn`, `maxFramesPerTurn`) so that the loop
/// moves on to its other connections (what is left waits for the connection's next turn), and
/// every answer given during the burst is written with one `send` (until the socket is full, or
/// `maxWriteBytesPerTurn` when set).
/// Answers from other threads are appended by the responder and flushed by one scheduled block.
/// The socket waits for writability only while output is pending, and for readability unless
/// reads are paused.
final class Connection: @unchecked Sendable {
    let loop: EventLoop
    let responder: Responder
    /// Holds this connection for the responder's flush blocks until `close()`.
    private let flushRelay = FlushRelay()
    /// Monotonic nanoseconds of the last bytes read or written, read by the transport's sweeper.
    let lastActivity = Atomic<UInt64>(0)
    /// Set once the transport asked this connection to close to make room (not asked twice).
    let isClosingToMakeRoom = Atomic<Bool>(false)
    /// When the last REQUEST frame arrived (the accept time before the first): what "idle" means.
    let lastRequest = Atomic<UInt64>(0)
    /// When the connection was accepted, monotonic nanoseconds.
    let acceptedAt: UInt64
    /// Whether the client's preface arrived (read by the sweeper without hopping).
    let handshakeDone = Atomic<Bool>(false)

    let descriptor: Int32
    /// The client's address (what `--max-connections-per-address` counts).
    let peer: String
    /// The client's port, as accepted (log lines name the peer as `peer:peerPort`).
    let peerPort: UInt16
    /// The TLS session when the server serves TLS (Connection+TLS.swift); nil for plaintext.
    let tls: ConnectionTLS?
    /// What every connection of the transport shares (its configuration, handler and logger):
    /// one reference instead of copies, which kept an idle connection at twice its size.
    let context: Context
    var configuration: TransportConfiguration { context.configuration }
    var handler: any RequestHandler { context.handler }
    var logger: Logger { context.logger }
    var decoder: FrameDecoder
    /// The requests of the read burst in progress, handed to the handler together at its end.
    var burst: [IncomingRequest] = []
    /// Requests accepted but not yet handed to the handler: they wait while the answers already
    /// computing, plus the output the client has not read, would pass `maxPendingOutputBytes`.
    var held: [IncomingRequest] = []
    var machine = ConnectionStateMachine()
    /// The registration in the loop; nil until started and after closing.
    var token: UInt64?
    var readsPaused = false
    var awaitingWritable = false
    var unsent: [UInt8] = []
    var unsentOffset = 0
    /// Frames may be left in the decoder: the last burst stopped at `maxFramesPerTurn`.
    var framesLeft = false
    /// A turn of this connection is queued behind the loop's other work (`scheduleNextTurn`).
    var nextTurnScheduled = false
    /// What this connection's unfinished frame takes from the transport's input budget.
    var inputShare = 0
    /// What this connection's unsent output takes from the transport's output budget.
    var outputShare = 0
    /// Set once the output budget could not hold this connection's unsent output (not asked twice).
    var outputRefused = false

    init(
        descriptor: Int32,
        peer: String,
        peerPort: UInt16,
        tls: ConnectionTLS? = nil,
        loop: EventLoop,
        context: Context
    ) {
        self.descriptor = descriptor
        self.peer = peer
        self.peerPort = peerPort
        self.tls = tls
        self.loop = loop
        self.context = context
        self.decoder = FrameDecoder(maxFrameSize: context.configuration.maxFrameSize, expectsPreface: true)
        self.acceptedAt = context.configuration.clock.nanoseconds
        lastActivity.store(acceptedAt, ordering: .relaxed)
        lastRequest.store(acceptedAt, ordering: .relaxed)
        let relay = flushRelay
        responder = Responder(
            executor: loop,
            streamOutputLimit: context.configuration.maxPendingOutputBytes,
            // What every client accepts (4 MiB), or more when the server reads larger frames too.
            maxFrameSize: max(context.configuration.maxFrameSize, FrameDecoder.defaultMaxFrameSize),
            peer: peer,
            requestBudget: context.requestBudget
        ) { relay.connection?.flush() }
        relay.connection = self
    }

    /// Registers with the loop and starts reading. Call once, on any thread.
    func start() {
        loop.execute { [self] in
            guard !machine.isClosed else { return }
            token = loop.add(self, interest: .read)
            if token == nil {
                logger.warning("a connection could not be registered for events; closing it")
                close()
            }
        }
    }

    /// What the loop found ready.
    func serve(ready: EventLoop.Events) {
        // A connection whose last turn spent its budget has its next one queued: it reads then.
        if ready.contains(.read) && interest.contains(.read) && !nextTurnScheduled {
            readAvailable()
        }
        if ready.contains(.write) && awaitingWritable && !machine.isClosed {
            writeUnsent()
        }
        // Hung up or failed while not reading: nothing can be delivered any more, and a
        // level-triggered registration would report the hang-up again and again.
        if ready.contains(.hangUp) && !machine.isClosed && !interest.contains(.read) {
            close()
        }
    }

    /// Queues another turn for a connection that spent its read or frame budget: it runs after
    /// the blocks already queued for the loop (other connections' ready events, answers from
    /// other threads), handles the frames left in the decoder, then reads on unless reads are paused.
    func scheduleNextTurn() {
        guard !nextTurnScheduled, !machine.isClosed else { return }
        nextTurnScheduled = true
        loop.execute { [self] in
            nextTurnScheduled = false
            readAvailable(fromSocket: interest.contains(.read))
        }
    }

    /// What the socket waits for now.
    var interest: EventLoop.Events {
        var interest: EventLoop.Events = []
        if !readsPaused { interest.insert(.read) }
        if awaitingWritable { interest.insert(.write) }
        return interest
    }

    /// Tells the loop about a change of `interest`.
    func interestChanged() {
        guard let token, !machine.isClosed else { return }
        loop.update(self, token: token, interest: interest)
    }

    // MARK: - Lifecycle

    /// Shutdown: GOAWAY UNAVAILABLE, end streams, answer what is in flight, then close.
    func drain() {
        loop.execute { [self] in
            guard let last = machine.beginDraining() else { return }
            sendPrefaceOnce()
            responder.send(.goAway(lastRequestID: last, status: .shuttingDown))
            responder.endAllStreams(status: .shuttingDown)
            flush()
        }
    }

    /// Closes if the handshake or idle timeout passed; called by the sweeper.
    ///
    /// The clock is read again on the connection's loop: activity recorded after the sweeper
    /// read its clock must not look like a connection idle for 584 years.
    func closeIfExpired() {
        loop.execute { [self] in
            guard !machine.isClosed else { return }
            let now = configuration.clock.nanoseconds
            if !handshakeDone.load(ordering: .relaxed) {
                if elapsedNanoseconds(from: acceptedAt, to: now) > configuration.handshakeTimeout.nanoseconds {
                    if closeIfTLSHandshakeUnfinished() { return }
                    fail(Status(.invalidArgument, "no preface within the handshake timeout"))
                    flush()
                }
                return
            }
            let idle = elapsedNanoseconds(from: lastRequest.load(ordering: .relaxed), to: now)
            guard idle > configuration.idleTimeout.nanoseconds else { return }
            switch machine.idleTimeoutPassed(inFlight: responder.inFlightCount) {
            case .none: break
            case .close: close()
            case .goAway(let last):
                responder.send(.goAway(lastRequestID: last, status: Status(.unavailable, "idle timeout")))
                flush()
            }
        }
    }

    /// Whether nothing is in flight (no request waits for its answer, no stream is open).
    var isIdle: Bool { responder.inFlightCount == 0 }

    /// At the connection limit, to make room for a new one: GOAWAY UNAVAILABLE (requests that
    /// arrive meanwhile are answered), then close.
    func closeToMakeRoom() {
        loop.execute { [self] in
            guard !machine.isClosed else { return }
            fail(
                Status(.unavailable, "closed to make room for a new connection: the server is at its connection limit")
            )
            flush()
        }
    }

    /// Closes now, dropping unsent output; on the loop.
    func close() {
        guard machine.close() else { return }
        responder.connectionClosed()
        if let token { loop.remove(self, token: token) }
        token = nil
        Glibc.close(descriptor)
        unsent = []
        context.inputBudget.release(inputShare)
        inputShare = 0
        context.outputBudget.release(outputShare)
        outputShare = 0
        // Flush blocks still queued find no connection; the cycle through the responder ends.
        flushRelay.connection = nil
        context.onClose(self)
    }

    /// Closes from any thread.
    func closeSoon() {
        loop.execute { [self] in close() }
    }
}

/// Nanoseconds from `start` to `end`, or 0 when `start` is later (a timestamp written by another
/// thread after `end` was read). Never wraps around.
func elapsedNanoseconds(from start: UInt64, to end: UInt64) -> UInt64 {
    end > start ? end - start : 0
}

/// The connection a responder's flush blocks reach. It is held strongly until `close()` lets it
/// go, rather than weakly: a weak reference gives an object a side table, and every retain and
/// release of that object then takes the slower path through it (1.7 % of a loop thread's
/// samples in a profile of durable writes). Read and written on the connection's loop thread only.
final class FlushRelay: @unchecked Sendable {
    var connection: Connection?
}

extension Connection {
    /// What the connections of one transport share.
    final class Context: Sendable {
        let configuration: TransportConfiguration
        let handler: any RequestHandler
        let logger: Logger
        /// Called once when a connection has closed.
        let onClose: @Sendable (Connection) -> Void
        /// The unfinished frames' bytes the connections hold together.
        let inputBudget: ByteBudget
        /// The unsent output the connections hold together.
        let outputBudget: ByteBudget
        /// The bytes of requests in flight the connections hold together.
        let requestBudget: ByteBudget

        init(
            configuration: TransportConfiguration,
            handler: any RequestHandler,
            logger: Logger,
            onClose: @escaping @Sendable (Connection) -> Void
        ) {
            self.configuration = configuration
            self.handler = handler
            self.logger = logger
            self.onClose = onClose
            inputBudget = ByteBudget(
                limit: max(configuration.maxUnfinishedInputBytes, 4 * configuration.maxFrameSize),
                allowancePerConnection: ByteBudget.inputAllowance
            )
            outputBudget = ByteBudget(
                limit: max(configuration.maxUnsentOutputBytes, 4 * configuration.maxPendingOutputBytes),
                allowancePerConnection: ByteBudget.outputAllowance
            )
            requestBudget = ByteBudget(
                limit: max(
                    configuration.maxRequestBytesInFlightTotal,
                    4 * configuration.maxFrameSize,
                    configuration.maxRequestBytesInFlight + configuration.maxFrameSize
                ),
                allowancePerConnection: ByteBudget.requestAllowance
            )
        }
    }
}
