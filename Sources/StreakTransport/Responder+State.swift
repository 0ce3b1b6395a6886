import StreakFraming

extension Responder {
    /// Everything a responder changes, guarded by its mutex: the requests in flight and the
    /// output not yet taken by the connection.
    struct State: Sendable {
        struct Entry: Sendable {
            var generation: UInt64
            /// A server-streaming method's request: its final frame is END_STREAM even when it ends
            /// (CANCEL, deadline) before the handler opened the stream.
            var isStreamingMethod = false
            /// The handler opened the stream (it sent a message or asked to hear of its end).
            var isStream = false
            /// The bytes the request was read with (message, method and metadata), held until it ends
            /// or the handler opens its stream (`markStream`).
            var bytes = 0
            var terminationHandlers: [@Sendable () -> Void] = []
        }

        /// A stream waiting for the output to drain (`Responder.resumeWhenOutputDrains`).
        struct DrainWaiter: Sendable {
            var threshold: Int
            var resume: @Sendable () -> Void
        }

        var output: [UInt8] = []
        var inFlight: [UInt32: Entry] = [:]
        var nextGeneration: UInt64 = 0
        var inBurst = false
        var flushScheduled = false
        var closed = false
        /// Output the connection took but could not send yet.
        var unsentBytes = 0
        /// About how large an answer on this connection is: the largest recent one, decaying by an
        /// eighth per answer; it decides how many requests may be computing at once.
        var answerEstimate = Responder.initialAnswerEstimate
        /// Set once every stream was ended (protocol error, shutdown): a stream opened later ends at once.
        var streamsEndedStatus: Status?
        /// The streams waiting for the output to fall to their threshold, by id; a waiter leaves
        /// with its stream (`remove`).
        var drainWaiters: [UInt32: DrainWaiter] = [:]

        /// The bytes of the requests in flight (`Entry.bytes`): reads stop while they pass the
        /// connection's `maxRequestBytesInFlight`.
        var requestBytes = 0
        /// What `requestBytes` takes from the transport's request budget, past the allowance.
        var requestShare = 0
        /// The request bytes every connection of the transport holds together; nil in tests of a
        /// responder alone.
        var requestBudget: ByteBudget?

        /// The output written for the client that it has not read yet.
        var pendingBytes: Int { output.count + unsentBytes }

        /// Whether `id` is in flight (and is the request of `generation`, when given).
        func isCurrent(_ id: UInt32, _ generation: UInt64?) -> Bool {
            guard let entry = inFlight[id] else { return false }
            return generation == nil || entry.generation == generation
        }

        /// Forgets `id` (answered or ended) and its drain waiter. - Returns: its entry, if it was in flight.
        @discardableResult
        mutating func remove(_ id: UInt32) -> Entry? {
            if !drainWaiters.isEmpty { drainWaiters[id] = nil }
            guard let entry = inFlight.removeValue(forKey: id) else { return nil }
            // Fewer bytes never take from the budget: this cannot fail.
            if entry.bytes > 0 { _ = holdRequestBytes(requestBytes - entry.bytes) }
            return entry
        }

        /// Marks `id` (in flight) as a stream the handler opened. Its request was read and decoded,
        /// so its bytes are no longer counted as held: a stream stays open as long as its client
        /// wants, and while counted, streams opened with large requests would keep the connection
        /// from being read, CANCEL frames included, for good.
        /// - Returns: whether it was not a stream before.
        mutating func markStream(_ id: UInt32) -> Bool {
            guard let entry = inFlight[id], !entry.isStream else { return false }
            inFlight[id]?.isStream = true
            if entry.bytes > 0 {
                inFlight[id]?.bytes = 0
                // Fewer bytes never take from the budget: this cannot fail.
                _ = holdRequestBytes(requestBytes - entry.bytes)
            }
            return true
        }

        /// Sets the request bytes held to `held`, moving the share of the request budget with
        /// them. - Returns: false, changing nothing, when the budget cannot give what `held` needs.
        mutating func holdRequestBytes(_ held: Int) -> Bool {
            if let requestBudget {
                guard let share = requestBudget.take(share: requestShare, held: held) else { return false }
                requestShare = share
            }
            requestBytes = held
            return true
        }

        /// Gives back the connection's share of the request budget (it closed: nothing is in flight).
        mutating func releaseRequestBytes() {
            requestBudget?.release(requestShare)
            requestShare = 0
            requestBytes = 0
        }

        /// Takes the drain waiters whose threshold the pending output is now at or under.
        mutating func takeDrainedWaiters() -> [@Sendable () -> Void] {
            guard !drainWaiters.isEmpty else { return [] }
            let pending = pendingBytes
            let ready = drainWaiters.filter { $0.value.threshold >= pending }
            for id in ready.keys { drainWaiters[id] = nil }
            return ready.values.map(\.resume)
        }

        /// Appends a frame. - Returns: whether the caller must schedule a flush (outside the lock).
        mutating func write(_ frame: Frame) -> Bool {
            FrameEncoder.encode(frame, into: &output)
            return needsFlush()
        }

        /// Removes `id` and writes its final frame (END_STREAM when `asStream` or when it is a
        /// stream or a streaming method's request, else RESPONSE).
        /// - Returns: its termination handlers, to run outside the lock, and whether to schedule a flush.
        mutating func end(
            _ id: UInt32,
            status: Status,
            asStream: Bool?
        ) -> (handlers: [@Sendable () -> Void], flush: Bool) {
            guard let entry = remove(id) else { return ([], false) }
            let frame: Frame =
                asStream ?? (entry.isStream || entry.isStreamingMethod)
                ? .endStream(id: id, status: status) : .response(id: id, status: status, message: [])
            return (entry.terminationHandlers, write(frame))
        }

        /// Whether output just written needs a flush block: not during a burst (its end flushes),
        /// not when one is already scheduled, never after the connection closed (output is dropped).
        mutating func needsFlush() -> Bool {
            if closed {
                output = []
                return false
            }
            guard !inBurst, !flushScheduled else { return false }
            flushScheduled = true
            return true
        }
    }
}
