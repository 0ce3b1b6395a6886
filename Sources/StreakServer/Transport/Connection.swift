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

    private let descriptor: Int32
    private let configuration: TransportConfiguration
    private let handler: any RequestHandler
    private let logger: Logger
    private let onClose: @Sendable (Connection) -> Void
    private var decoder: FrameDecoder
    private var machine = ConnectionStateMachine()
    private var readSource: (any DispatchSourceRead)?
    private var writeSource: (any DispatchSourceWrite)?
    private var readsPaused = false
    private var writeSourceRunning = false
    private var unsent: [UInt8] = []
    private var unsentOffset = 0
    private var closeWhenFlushed = false
    private var prefaceSent = false
    private var lingering = false
    private var peerEnded = false
    private var cancelledSources = 0

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

    // MARK: - Reading

    private func readAvailable() {
        guard !machine.isClosed else { return }
        if lingering {
            discardInput()
            return
        }
        guard !closeWhenFlushed else { return }
        let buffer = ReadBufferPool.shared.take()
        defer { ReadBufferPool.shared.give(buffer) }
        var received = false
        var ended = false
        var broken = false
        while true {
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if count > 0 {
                decoder.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                received = true
                if count < buffer.count { break }  // a short read: the socket is drained
            } else if count == 0 {
                ended = true
                break
            } else if errno == EINTR {
                continue
            } else {
                if errno != EAGAIN && errno != EWOULDBLOCK { broken = true }
                break
            }
        }
        if received {
            lastActivity.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
            handleBurst()
        }
        if broken {
            // Reset by the peer: nothing can be delivered any more.
            logger.debug("a connection was reset by the client")
            close()
            return
        }
        if ended && !machine.isClosed {
            do {
                try decoder.finish()
            } catch {
                logger.debug("a connection ended inside a frame", metadata: ["reason": "\(error.code)"])
            }
            peerStoppedSending()
        }
    }

    /// The client sent everything it will send: end its streams, answer what is in flight, close.
    private func peerStoppedSending() {
        peerEnded = true
        pauseReads()
        responder.endAllStreams(status: Status(.cancelled, "the client closed the connection"))
        flush()
    }

    /// After an error frame: read and drop what the client still sends, so that closing does not
    /// reset the connection before the client has read the error.
    private func discardInput() {
        let buffer = ReadBufferPool.shared.take()
        defer { ReadBufferPool.shared.give(buffer) }
        while true {
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if count > 0 { continue }
            if count < 0 && errno == EINTR { continue }
            if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) { close() }
            return
        }
    }

    private func handleBurst() {
        responder.beginBurst()
        do {
            while !closeWhenFlushed, let frame = try nextFrame() {
                handle(frame)
            }
            _ = try nextFrame()  // a preface that completed without a frame still gets its answer
        } catch {
            fail(error.status)
        }
        // Always, even after a protocol error: requests accepted before it may wait for the burst's hop.
        handler.didFinishReadBurst(responder: responder)
        responder.endBurst()
        flush()
    }

    private func nextFrame() throws(FramingError) -> Frame? {
        let frame = try decoder.next()
        if decoder.hasReceivedPreface && machine.prefaceReceived() {
            handshakeDone.store(true, ordering: .relaxed)
            sendPrefaceOnce()
        }
        return frame
    }

    private func handle(_ frame: Frame) {
        switch frame {
        case .request(let id, let method, let metadata, let message):
            accept(id: id, method: method, metadata: metadata, message: message)
        case .cancel(let id):
            responder.terminate(id, status: Status(.cancelled, "cancelled by the client"))
        case .ping(let payload):
            responder.send(.pong(payload))
        case .pong:
            break
        case .response, .streamMessage, .endStream, .goAway:
            fail(Status(.invalidArgument, "a client may not send \(frame.kindName) frames"))
        }
    }

    private func accept(id: UInt32, method: String, metadata: [MetadataEntry], message: [UInt8]) {
        switch machine.requestReceived(id: id) {
        case .accept: break
        case .refuseDraining:
            responder.send(.response(id: id, status: Status(.unavailable, "the server is shutting down"), message: []))
            return
        case .ignoreClosed: return
        }
        var deadline: DispatchTime?
        if let text = metadata.first(where: { $0.key == MetadataEntry.deadlineKey })?.value {
            guard let milliseconds = UInt64(text), milliseconds <= 86_400_000 else {
                let status = Status(
                    .invalidArgument,
                    "deadline-ms must be a whole number of milliseconds up to 86400000, got \"\(text.prefix(32))\""
                )
                responder.send(.response(id: id, status: status, message: []))
                return
            }
            deadline = .now() + .milliseconds(Int(milliseconds))
        }
        let generation: UInt64
        switch responder.register(id, limit: configuration.maxInFlightPerConnection) {
        case .duplicate:
            responder.send(
                .response(
                    id: id,
                    status: Status(.invalidArgument, "request id \(id) is already in flight"),
                    message: []
                )
            )
            return
        case .overLimit:
            let status = Status(
                .resourceExhausted,
                "more than \(configuration.maxInFlightPerConnection) requests in flight on one connection"
            )
            responder.send(.response(id: id, status: status, message: []))
            return
        case .accepted(let accepted):
            generation = accepted
            if let deadline {
                queue.asyncAfter(deadline: deadline) { [weak self] in
                    self?.responder.terminate(
                        id,
                        generation: generation,
                        status: Status(.deadlineExceeded, "the deadline passed")
                    )
                }
            }
        }
        handler.handle(
            IncomingRequest(
                id: id,
                method: method,
                metadata: metadata,
                message: message,
                deadline: deadline,
                generation: generation
            ),
            responder: responder
        )
    }

    /// A protocol error: GOAWAY with the reason, streams end with it, requests accepted before it
    /// are still answered; then the connection closes.
    private func fail(_ status: Status) {
        guard !closeWhenFlushed, !machine.isClosed else { return }
        logger.debug("closing a connection after a protocol error", metadata: ["status": "\(status.code)"])
        sendPrefaceOnce()
        responder.send(.goAway(lastRequestID: machine.highestRequestID, status: status))
        responder.endAllStreams(status: status)
        closeWhenFlushed = true
        pauseReads()
    }

    // MARK: - Writing

    /// Moves the responder's output to the socket; called on the queue.
    private func flush() {
        guard !machine.isClosed else { return }
        let output = responder.takeOutput()
        if !output.isEmpty {
            if unsent.isEmpty {
                unsent = output
                unsentOffset = 0
            } else {
                unsent.append(contentsOf: output)
            }
        }
        writeUnsent()
    }

    private func writeUnsent() {
        guard !machine.isClosed else { return }
        while unsentOffset < unsent.count {
            let written = unsent.withUnsafeBytes {
                send(
                    descriptor,
                    $0.baseAddress! + unsentOffset,
                    $0.count - unsentOffset,
                    Int32(MSG_NOSIGNAL | MSG_DONTWAIT)
                )
            }
            if written > 0 {
                unsentOffset += written
                lastActivity.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
            } else if written < 0 && errno == EINTR {
                continue
            } else if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                break
            } else {
                close()
                return
            }
        }
        let pending = unsent.count - unsentOffset
        responder.noteUnsentBytes(pending)
        if pending == 0 {
            unsent = []
            unsentOffset = 0
            setWriteSourceRunning(false)
            // Finished means answered and handed over: an answer encoded since takeOutput() is
            // flushed by the block its responder scheduled, and only then may the connection close.
            let finished = responder.isFinished
            if closeWhenFlushed {
                // After a protocol error: answer what was accepted before it, then close.
                if finished { startLingering() }
                return
            }
            if peerEnded && finished {
                close()
                return
            }
            if machine.mayCloseAfterDraining(inFlight: finished ? 0 : 1, unsentBytes: 0) {
                // Not close(): a client still sending would turn it into a reset that drops answers.
                startLingering()
                return
            }
        } else {
            setWriteSourceRunning(true)
        }
        if pending > configuration.maxPendingOutputBytes {
            pauseReads()
        } else if readsPaused && !closeWhenFlushed && !peerEnded && pending <= configuration.maxPendingOutputBytes / 2 {
            readsPaused = false
            readSource?.resume()
        }
    }

    /// Half-closes, drops further input for up to a second, then closes.
    private func startLingering() {
        guard !lingering else { return }
        lingering = true
        shutdown(descriptor, Int32(SHUT_WR))
        if readsPaused {
            readsPaused = false
            readSource?.resume()
        }
        queue.asyncAfter(deadline: .now() + .seconds(1)) { [self] in close() }
    }

    private func sendPrefaceOnce() {
        guard !prefaceSent else { return }
        prefaceSent = true
        responder.sendRaw(Preface.bytes)
    }

    private func setWriteSourceRunning(_ running: Bool) {
        guard running != writeSourceRunning, let writeSource else { return }
        writeSourceRunning = running
        if running { writeSource.resume() } else { writeSource.suspend() }
    }

    private func pauseReads() {
        guard !readsPaused, let readSource else { return }
        readsPaused = true
        readSource.suspend()
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

    private func sourceCancelled() {
        cancelledSources += 1
        if cancelledSources == 2 { Glibc.close(descriptor) }
    }
}

extension Frame {
    /// The kind's name as PROTOCOL.md writes it.
    var kindName: String {
        switch self {
        case .request: "REQUEST"
        case .response: "RESPONSE"
        case .streamMessage: "STREAM_MESSAGE"
        case .endStream: "END_STREAM"
        case .cancel: "CANCEL"
        case .ping: "PING"
        case .pong: "PONG"
        case .goAway: "GOAWAY"
        }
    }
}

/// Nanoseconds from `start` to `end`, or 0 when `start` is later (a timestamp written by another
/// thread after `end` was read). Never wraps around.
func elapsedNanoseconds(from start: UInt64, to end: UInt64) -> UInt64 {
    end > start ? end - start : 0
}
