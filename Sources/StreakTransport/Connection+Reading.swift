import Dispatch
import FoundationEssentials
import Logging
import StreakFraming
import StreakPOSIX
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Reading: bursts of frames from the socket, handled inline on the loop's thread.
extension Connection {
    /// One turn of reading: the frames a spent budget left in the decoder first, then (when
    /// `fromSocket` and none are left) at most `maxReadBytesPerTurn` from the socket and at most
    /// `maxFramesPerTurn` frames of it. A spent budget queues the connection's next turn.
    func readAvailable(fromSocket: Bool = true) {
        guard !machine.isClosed else { return }
        if machine.isLingering {
            discardInput()
            return
        }
        guard machine.readsFrames else {
            framesLeft = false
            pauseReads()  // level-triggered: input left unread must not be reported again and again
            return
        }
        if framesLeft {
            handleBurst()
            if framesLeft {
                scheduleNextTurn()
                return
            }
        }
        guard fromSocket, !machine.isClosed else { return }
        let buffer = loop.readBuffer
        var received = false
        var ended = false
        var broken = false
        var budgetSpent = false
        var total = 0
        while true {
            let count = receive(into: buffer)
            if count > 0 {
                decoder.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                received = true
                total += count
                if count < buffer.count { break }  // a short read: the socket is drained
                if total >= configuration.maxReadBytesPerTurn {
                    budgetSpent = true
                    break
                }
            } else if count == 0 {
                ended = true
                break
            } else {
                if errno != EAGAIN && errno != EWOULDBLOCK { broken = true }
                break
            }
        }
        if received {
            lastActivity.store(configuration.clock.nanoseconds, ordering: .relaxed)
            handleBurst()
            accountUnfinishedInput()
        }
        if pendingTLSOutput > 0 && !machine.isClosed { writeUnsent() }  // the TLS handshake's answers
        if broken {
            // Reset by the peer: nothing can be delivered any more.
            logger.debug("a connection was reset by the client")
            close()
            return
        }
        if ended && !machine.isClosed {
            // Nothing more comes: the frames left are handled now, before the end is taken.
            while framesLeft && !machine.isClosed { handleBurst() }
            guard !machine.isClosed else { return }
            do {
                try decoder.finish()
            } catch {
                logger.debug("a connection ended inside a frame", metadata: ["reason": "\(error.code)"])
            }
            peerStoppedSending()
            return
        }
        if budgetSpent || framesLeft { scheduleNextTurn() }
    }

    /// Takes what the decoder holds past the allowance from the transport's input budget; a
    /// connection the budget cannot hold fails with RESOURCE_EXHAUSTED (its requests already read
    /// are answered), so that unfinished frames cannot hold the server's memory without bound.
    func accountUnfinishedInput() {
        guard !machine.isClosed, machine.readsFrames else { return }
        guard let share = context.inputBudget.update(share: inputShare, held: decoder.bufferedByteCount) else {
            inputShare = 0
            fail(
                Status(
                    .resourceExhausted,
                    "the server holds too many unfinished large frames already; send this request again later"
                )
            )
            flush()
            return
        }
        inputShare = share
    }

    /// The client sent everything it will send: end its streams, answer what is in flight, close.
    func peerStoppedSending() {
        let endStreams = machine.peerStoppedSending()
        pauseReads()
        if endStreams { responder.endAllStreams(status: Status(.cancelled, "the client closed the connection")) }
        flush()
    }

    /// After an error frame: read and drop what the client still sends, so that closing does not
    /// reset the connection before the client has read the error.
    func discardInput() {
        let buffer = loop.readBuffer
        while true {
            let count = retryingOnInterrupt { recv(descriptor, buffer.baseAddress, buffer.count, 0) }
            if count > 0 { continue }
            if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) { close() }
            return
        }
    }

    /// Handles the complete frames in the decoder, at most `maxFramesPerTurn` of them (then
    /// `framesLeft` is set), and sends what they were answered with.
    func handleBurst() {
        responder.beginBurst()
        framesLeft = false
        var handled = 0
        do {
            while machine.readsFrames, let frame = try nextFrame() {
                handle(frame)
                handled += 1
                if handled >= configuration.maxFramesPerTurn {
                    framesLeft = true
                    break
                }
            }
            // A preface that completed without a frame still gets its answer.
            if !framesLeft { _ = try nextFrame() }
        } catch {
            fail(error.status)
        }
        deliverBurst()
        responder.endBurst()
        flush()
    }

    /// Hands the requests accepted so far in this burst to the handler (at the burst's end, or
    /// before a protocol error's GOAWAY, so that their inline answers come first).
    func deliverBurst() {
        guard !burst.isEmpty else { return }
        if held.isEmpty {
            // The usual case: the buffers trade places, and no request is copied.
            swap(&held, &burst)
        } else {
            held.append(contentsOf: burst)
            burst.removeAll(keepingCapacity: true)
        }
        dispatchHeld()
    }

    /// Hands held requests to the handler while the bytes they may answer with fit: the output
    /// waiting for the client plus, for every request computing, the connection's answer size
    /// estimate stay under `maxPendingOutputBytes` (when nothing computes and the output waiting
    /// is under the bound, one request may start even if its estimate does not fit; none starts
    /// while the output waiting is at the bound, until the client reads). A client that
    /// pipelines big requests and never reads therefore holds at most about the bound plus one
    /// answer, not `maxInFlight` times an answer; its reads stop while requests are held.
    func dispatchHeld() {
        // Rounds: a request the handler turned into a stream (a Watch) no longer counts as an
        // answer being computed, so the next round may hand over more.
        while !held.isEmpty, !machine.isClosed {
            let (pending, unary, estimate) = responder.outputBudget
            var computing = unary - held.count
            var taken = 0
            var skipped = false
            // By index: `for request in held` would copy each request out (three retains).
            for index in held.indices {
                let bound = configuration.maxPendingOutputBytes
                if pending + (computing + 1) * estimate > bound && (computing > 0 || pending >= bound) { break }
                taken += 1
                // Cancelled or past its deadline while held: already answered.
                if responder.isActive(held[index].id, generation: held[index].generation) {
                    computing += 1
                } else {
                    skipped = true
                }
            }
            if taken == held.count && !skipped {
                // The usual case: all of them. The handler gets `held` itself, which is unique
                // again once it returns, so emptying it keeps its buffer: no array per burst.
                handler.handle(held, responder: responder)
                held.removeAll(keepingCapacity: true)
                break
            }
            let batch = held.prefix(taken).filter { responder.isActive($0.id, generation: $0.generation) }
            held.removeFirst(taken)
            if !batch.isEmpty { handler.handle(batch, responder: responder) }
            if taken == 0 { break }
        }
        if !held.isEmpty { pauseReads() }
    }

    func nextFrame() throws(FramingError) -> Frame? {
        let frame = try decoder.next()
        // The machine first: asking the decoder (a struct of another module, in a class) copies it.
        if machine.isAwaitingPreface && decoder.hasReceivedPreface {
            handshakeDone.store(true, ordering: .relaxed)
            if machine.prefaceReceived() { responder.sendRaw(Preface.bytes) }
        }
        return frame
    }

    func handle(_ frame: Frame) {
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

    func accept(id: UInt32, method: String, metadata: [MetadataEntry], message: [UInt8]) {
        lastRequest.store(configuration.clock.nanoseconds, ordering: .relaxed)
        switch machine.requestReceived(id: id) {
        case .accept: break
        case .refuseDraining:
            refuse(id, method: method, .shuttingDown)
            return
        case .ignore: return
        }
        var deadline: DispatchTime?
        if let text = metadata.first(where: { $0.key == MetadataEntry.deadlineKey })?.value {
            guard let milliseconds = Self.deadlineMilliseconds(text) else {
                let status = Status(
                    .invalidArgument,
                    "deadline-ms must be a whole number of milliseconds up to 86400000, got \"\(text.prefix(32))\""
                )
                refuse(id, method: method, status)
                return
            }
            deadline = .now() + .milliseconds(Int(milliseconds))
        }
        let generation: UInt64
        let streaming = handler.isServerStreaming(method)
        let bytes =
            message.count + method.utf8.count + metadata.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        switch responder.register(
            id,
            limit: configuration.maxInFlightPerConnection,
            streaming: streaming,
            bytes: bytes
        ) {
        case .duplicate:
            // Like HTTP/2's reused stream id, a connection error: the request in flight keeps its
            // one answer, and nothing after this frame is read.
            fail(Status(.invalidArgument, "request id \(id) is already in flight: a reused id ends the connection"))
            return
        case .overLimit:
            let status = Status(
                .resourceExhausted,
                "more than \(configuration.maxInFlightPerConnection) requests in flight on one connection"
            )
            refuse(id, method: method, status)
            return
        case .overBudget:
            refuse(id, method: method, Self.requestBudgetSpent)
            return
        case .accepted(let accepted):
            generation = accepted
            if let deadline {
                loop.execute(at: deadline, RequestDeadline(responder: responder, id: id, generation: generation))
            }
        }
        burst.append(
            IncomingRequest(
                id: id,
                method: method,
                metadata: metadata,
                message: message,
                deadline: deadline,
                generation: generation
            )
        )
    }

    /// A protocol error: GOAWAY with the reason, streams end with it, requests accepted before it
    /// are still answered; then the connection closes.
    func fail(_ status: Status) {
        deliverBurst()
        guard let last = machine.protocolError() else { return }
        logger.debug(
            "closing a connection after a protocol error",
            metadata: ["peer": "\(peer)", "status": "\(status.code)", "reason": "\(status.message)"]
        )
        sendPrefaceOnce()
        responder.send(.goAway(lastRequestID: last, status: status))
        responder.endAllStreams(status: status)
        pauseReads()
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

extension Connection {
    /// Ends a request the handler will not see: END_STREAM for a server-streaming method,
    /// a RESPONSE otherwise.
    func refuse(_ id: UInt32, method: String, _ status: Status) {
        let streaming = handler.isServerStreaming(method)
        responder.send(streaming ? .endStream(id: id, status: status) : .response(id: id, status: status, message: []))
    }

    /// The answer to a request that the transport's request budget cannot hold.
    static let requestBudgetSpent = Status(
        .resourceExhausted,
        "the server holds too many large requests in flight already; send this request again later"
    )

    /// The value of `deadline-ms`: ASCII digits only (no sign, space or fraction), at most a day.
    static func deadlineMilliseconds(_ text: String) -> UInt64? {
        guard !text.isEmpty else { return nil }
        // Leading zeros are digits like any other: the value is what counts, not the length.
        var milliseconds: UInt64 = 0
        for digit in text.utf8 {
            guard (0x30...0x39).contains(digit) else { return nil }
            milliseconds = milliseconds * 10 + UInt64(digit - 0x30)
            guard milliseconds <= 86_400_000 else { return nil }
        }
        return milliseconds
    }
}

/// A request's deadline: answers DEADLINE_EXCEEDED unless the request ended first, and is
/// obsolete (dropped from the loop's timers) once it did: the request was answered, cancelled,
/// or its connection closed. Fits an existential's inline buffer: no allocation per request.
struct RequestDeadline: LoopTimerAction {
    let responder: Responder
    let id: UInt32
    let generation: UInt64

    func fire() {
        responder.terminate(id, generation: generation, status: Status(.deadlineExceeded, "the deadline passed"))
    }

    var isObsolete: Bool { !responder.isActive(id, generation: generation) }
}
