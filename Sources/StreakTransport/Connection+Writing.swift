import Dispatch
import FoundationEssentials
import Logging
import StreakFraming
import StreakPOSIX
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Writing: the responder's output to the socket, waiting for writability only while output is pending.
extension Connection {
    /// Moves the responder's output to the socket; called on the loop.
    func flush() {
        guard !machine.isClosed else { return }
        let output = responder.takeOutput()
        if !output.isEmpty {
            if unsent.isEmpty {
                unsent = output
                unsentOffset = 0
            } else {
                if unsentOffset > 0 && unsent.count + output.count > unsent.capacity {
                    // The array must grow: it keeps only the bytes not sent yet, not those the
                    // socket took (a slow reader's array grew with everything ever sent to it).
                    unsent.removeSubrange(0..<unsentOffset)
                    unsentOffset = 0
                }
                unsent.append(contentsOf: output)
            }
        }
        writeUnsent()
    }

    func writeUnsent() {
        guard !machine.isClosed else { return }
        if unsentOffset < unsent.count {
            // Before the send, not after: a client that got these bytes must find the activity
            // recorded (an idle sweep must never see a time before an answer the client read).
            lastActivity.store(configuration.clock.nanoseconds, ordering: .relaxed)
        }
        guard sendTLSOutput() else {
            close()
            return
        }
        // Until the socket is full, or the turn's budget (when one is set) is spent: the rest waits
        // for writability, reported in a later turn.
        var budget = configuration.maxWriteBytesPerTurn
        while unsentOffset < unsent.count && budget > 0 {
            let written = unsent.withUnsafeBytes { bytes in
                transmit(bytes.baseAddress! + unsentOffset, min(bytes.count - unsentOffset, budget))
            }
            if written > 0 {
                unsentOffset += written
                budget -= written
            } else if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                break
            } else {
                close()
                return
            }
        }
        let pending = unsent.count - unsentOffset + pendingTLSOutput
        // Past the allowance only: a connection whose answers the socket takes never gets here.
        if pending > ByteBudget.outputAllowance || outputShare > 0 {
            accountUnsentOutput(pending)
            guard !machine.isClosed else { return }
        }
        responder.noteUnsentBytes(pending)
        if pending == 0 {
            unsent = []
            unsentOffset = 0
            setAwaitingWritable(false)
            // Finished means answered and handed over: an answer encoded since takeOutput() is
            // flushed by the block its responder scheduled, and only then may the connection close.
            switch machine.outputFlushed(finished: responder.isFinished) {
            case .none: break
            case .close:
                close()
                return
            case .linger:
                // Not close(): a client still sending would turn it into a reset that drops answers.
                startLingering()
                return
            }
            if !machine.readsFrames {
                // Failed: nothing more is read, but requests read before the error that the output
                // budget held back are still answered (the GOAWAY promised them).
                dispatchHeld()
                return
            }
        } else {
            setAwaitingWritable(true)
        }
        dispatchHeld()
        // Every burst ends here (its flush): reads stop while the output waiting passes its bound,
        // requests are held, or the requests in flight hold `maxRequestBytesInFlight` bytes or
        // more (a client that pipelines large requests with small answers); they resume once the
        // output and the request bytes are down to half.
        let requestBytes = responder.requestBytesInFlight
        if pending > configuration.maxPendingOutputBytes || !held.isEmpty
            || requestBytes >= configuration.maxRequestBytesInFlight
        {
            pauseReads()
        } else if readsPaused && machine.mayResumeReads && pending <= configuration.maxPendingOutputBytes / 2
            && requestBytes <= configuration.maxRequestBytesInFlight / 2
        {
            readsPaused = false
            interestChanged()
            // Input a spent read budget left inside a TLS session is not reported by the socket.
            scheduleNextTurn()
        }
    }

    /// Takes the unsent output past the allowance from the transport's output budget, so that
    /// clients that do not read cannot hold the server's memory without bound. A connection the
    /// budget cannot hold fails with RESOURCE_EXHAUSTED (its GOAWAY follows the answers it has not
    /// read; nothing more is read from it), and is closed a second later, dropping its output, if
    /// its client has not read all of it by then.
    func accountUnsentOutput(_ pending: Int) {
        guard !outputRefused else { return }
        guard let share = context.outputBudget.update(share: outputShare, held: pending) else {
            outputShare = 0
            outputRefused = true
            fail(
                Status(
                    .resourceExhausted,
                    "the server holds too much output that clients have not read; read the answers, "
                        + "then send requests again"
                )
            )
            loop.execute(at: .now() + .seconds(1)) { [self] in
                guard !machine.isClosed, unsent.count - unsentOffset + pendingTLSOutput > 0 else { return }
                logger.debug(
                    "closing a connection whose client did not read its output",
                    metadata: ["peer": "\(peer)", "unsent": "\(unsent.count - unsentOffset)"]
                )
                close()
            }
            return
        }
        outputShare = share
    }

    /// Half-closes, drops further input for up to a second, then closes (the machine is lingering).
    func startLingering() {
        sendTLSCloseNotify()
        shutdown(descriptor, Int32(SHUT_WR))
        if readsPaused {
            readsPaused = false
            interestChanged()
        }
        loop.execute(at: .now() + .seconds(1)) { [self] in close() }
    }

    func sendPrefaceOnce() {
        if machine.sendPreface() { responder.sendRaw(Preface.bytes) }
    }

    func setAwaitingWritable(_ awaiting: Bool) {
        guard awaiting != awaitingWritable else { return }
        awaitingWritable = awaiting
        interestChanged()
    }

    func pauseReads() {
        guard !readsPaused else { return }
        readsPaused = true
        interestChanged()
    }
}
