import Dispatch
import Foundation
import Logging
import StreakFraming
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One client connection: one read and one write source, created once, on a serial queue.
///
/// Reads are handled in bursts: everything readable is read, every complete frame handled
/// inline, and every answer given during the burst written with one `send`. Answers from other
/// threads are appended by the responder and flushed by one scheduled block. The descriptor is
/// closed only in the sources' cancel handlers, after both ran.
final class Connection: @unchecked Sendable {
    let queue: DispatchQueue
    private(set) var responder: Responder!
    /// Monotonic nanoseconds of the last bytes read or written, read by the transport's sweeper.
    let lastActivity = Atomic<UInt64>(0)
    /// When the connection was accepted, monotonic nanoseconds.
    let acceptedAt: UInt64
    /// Whether the client's preface arrived (read by the sweeper without hopping).
    let handshakeDone = Atomic<Bool>(false)

    let descriptor: Int32
    let configuration: TransportConfiguration
    let handler: any RequestHandler
    let logger: Logger
    let onClose: @Sendable (Connection) -> Void
    var decoder: FrameDecoder
    var machine = ConnectionStateMachine()
    var readSource: (any DispatchSourceRead)?
    var writeSource: (any DispatchSourceWrite)?
    var readsPaused = false
    var writeSourceRunning = false
    var unsent: [UInt8] = []
    var unsentOffset = 0
    var closeWhenFlushed = false
    var prefaceSent = false
    var lingering = false
    var peerEnded = false
    var cancelledSources = 0

    init(
        descriptor: Int32,
        queue: DispatchQueue,
        configuration: TransportConfiguration,
        handler: any RequestHandler,
        logger: Logger,
        onClose: @escaping @Sendable (Connection) -> Void
    ) {
        self.descriptor = descriptor
        self.queue = queue
        self.configuration = configuration
        self.handler = handler
        self.logger = logger
        self.onClose = onClose
        self.decoder = FrameDecoder(maxFrameSize: configuration.maxFrameSize, expectsPreface: true)
        self.acceptedAt = DispatchTime.now().uptimeNanoseconds
        lastActivity.store(acceptedAt, ordering: .relaxed)
        responder = Responder(queue: queue, streamOutputLimit: configuration.maxPendingOutputBytes) {
            [weak self] in self?.flush()
        }
    }

    /// Creates the sources and starts reading. Call once, on any thread.
    func start() {
        queue.async { [self] in
            let read = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
            let write = DispatchSource.makeWriteSource(fileDescriptor: descriptor, queue: queue)
            read.setEventHandler { [unowned self] in readAvailable() }
            write.setEventHandler { [unowned self] in writeUnsent() }
            read.setCancelHandler { [self] in sourceCancelled() }
            write.setCancelHandler { [self] in sourceCancelled() }
            readSource = read
            writeSource = write
            read.activate()
        }
    }

    // MARK: - Lifecycle

    /// Shutdown: GOAWAY UNAVAILABLE, end streams, answer what is in flight, then close.
    func drain() {
        queue.async { [self] in
            guard let last = machine.beginDraining() else { return }
            sendPrefaceOnce()
            responder.send(.goAway(lastRequestID: last, status: Status(.unavailable, "the server is shutting down")))
            responder.endAllStreams(status: Status(.unavailable, "the server is shutting down"))
            flush()
        }
    }

    /// Closes if the handshake or idle timeout passed; called by the sweeper.
    ///
    /// The clock is read again on the connection's queue: activity recorded after the sweeper
    /// read its clock must not look like a connection idle for 584 years.
    func closeIfExpired() {
        queue.async { [self] in
            guard !machine.isClosed else { return }
            let now = DispatchTime.now().uptimeNanoseconds
            if !handshakeDone.load(ordering: .relaxed) {
                if elapsedNanoseconds(from: acceptedAt, to: now) > configuration.handshakeTimeout.nanoseconds {
                    fail(Status(.invalidArgument, "no preface within the handshake timeout"))
                    flush()
                }
                return
            }
            let idle = elapsedNanoseconds(from: lastActivity.load(ordering: .relaxed), to: now)
            guard idle > configuration.idleTimeout.nanoseconds else { return }
            if peerEnded || closeWhenFlushed {
                // Nothing more will be read and nothing moved since: do not wait on its requests forever.
                close()
                return
            }
            if responder.inFlightCount == 0 {
                if let last = machine.beginDraining() {
                    responder.send(.goAway(lastRequestID: last, status: Status(.unavailable, "idle timeout")))
                    flush()
                }
            }
        }
    }

    /// Closes now, dropping unsent output; on the queue.
    func close() {
        guard machine.close() else { return }
        responder.connectionClosed()
        if readSource == nil { Glibc.close(descriptor) }
        readSource?.cancel()
        writeSource?.cancel()
        if readsPaused { readSource?.resume() }
        if !writeSourceRunning { writeSource?.resume() }
        unsent = []
        onClose(self)
    }

    /// Closes from any thread.
    func closeSoon() {
        queue.async { [self] in close() }
    }

    func sourceCancelled() {
        cancelledSources += 1
        if cancelledSources == 2 { Glibc.close(descriptor) }
    }
}

/// Nanoseconds from `start` to `end`, or 0 when `start` is later (a timestamp written by another
/// thread after `end` was read). Never wraps around.
func elapsedNanoseconds(from start: UInt64, to end: UInt64) -> UInt64 {
    end > start ? end - start : 0
}
