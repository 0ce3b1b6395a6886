public import StreakWire

extension StreakClient {
    /// Watches the user's completions: a `WireWatchEvent` each time one changes.
    ///
    /// When the subscription ends with UNAVAILABLE (the server sent GOAWAY or is shutting
    /// down, or the connection broke), the watch connects again and resubscribes, backing
    /// off as `reconnect` says, and calls `onReconnect` once it has. Changes committed while
    /// no subscription was registered are not replayed: a server sends only changes made
    /// after it registered the stream. Iteration throws when the server ends the stream with
    /// another error, or with the last UNAVAILABLE once the attempts run out; it ends after
    /// `close()`.
    /// - Parameters:
    ///   - request: `asOf` fixes the day the pushed streaks are computed for.
    ///   - reconnect: how often and how fast to resubscribe; `.never` ends at the first loss.
    ///   - onReconnect: called with the error that ended the previous subscription each time
    ///     a new one has been sent (on a task of the watch, not the caller's).
    /// - Returns: the events, until the caller stops iterating or the stream ends for good.
    /// - Throws: `StreakClientError` when the first subscription cannot be sent (no connection).
    public func watch(
        _ request: WireWatchRequest = WireWatchRequest(),
        reconnect: WatchReconnectPolicy = .default,
        onReconnect: (@Sendable (_ lost: StreakClientError) -> Void)? = nil
    ) async throws(StreakClientError) -> StreakResponseStream<WireWatchEvent> {
        try await watch(request, reconnect: reconnect, clock: ContinuousClock(), onReconnect: onReconnect)
    }

    /// `watch` with the clock that times the backoffs and how long a subscription lasted.
    func watch<C: Clock>(
        _ request: WireWatchRequest,
        reconnect: WatchReconnectPolicy,
        clock: C,
        onReconnect: (@Sendable (_ lost: StreakClientError) -> Void)?
    ) async throws(StreakClientError) -> StreakResponseStream<WireWatchEvent> where C.Duration == Duration {
        let generation = closeGeneration
        let first = try await subscribe(request)
        guard reconnect.maxAttempts > 0 else { return StreakResponseStream(results: first) }
        let (results, continuation) = AsyncStream<CallResult>.makeStream()
        let relay = Task {
            await relayWatch(
                from: first,
                request: request,
                policy: reconnect,
                clock: clock,
                generation: generation,
                onReconnect: onReconnect,
                to: continuation
            )
        }
        continuation.onTermination = { _ in relay.cancel() }
        return StreakResponseStream(results: results)
    }

    /// Sends a Watch request on the current connection (connecting when needed).
    private func subscribe(_ request: WireWatchRequest) async throws(StreakClientError) -> AsyncStream<CallResult> {
        try await connection().stream(.watch, request, as: WireWatchEvent.self).results
    }

    /// Forwards each subscription's results and resubscribes after an UNAVAILABLE end, as
    /// `WatchReconnectStateMachine` decides. Cancelling the task (the caller stopped
    /// iterating) ends the current subscription, which sends CANCEL.
    private func relayWatch<C: Clock>(
        from first: AsyncStream<CallResult>,
        request: WireWatchRequest,
        policy: WatchReconnectPolicy,
        clock: C,
        generation: Int,
        onReconnect: (@Sendable (StreakClientError) -> Void)?,
        to output: AsyncStream<CallResult>.Continuation
    ) async where C.Duration == Duration {
        defer { output.finish() }
        var machine = WatchReconnectStateMachine(policy: policy)
        var source = first
        while true {
            let started = clock.now
            var lost: StreakClientError?
            for await result in source {
                switch result {
                case .success:
                    machine.eventReceived()
                    output.yield(result)
                case .failure(let error):
                    lost = error
                }
            }
            if Task.isCancelled { return }
            guard let error = lost else { return }  // ended with OK
            // After close() the loss is the caller's doing: no reconnection.
            guard closeGeneration == generation else {
                output.yield(.failure(error))
                return
            }
            var action = machine.streamEnded(error, after: started.duration(to: clock.now))
            var latest = error
            reconnecting: while true {
                switch action {
                case .fail(let failure):
                    output.yield(.failure(failure))
                    return
                case .sleep(let delay):
                    do {
                        try await clock.sleep(for: delay)
                    } catch {
                        return  // cancelled
                    }
                    guard closeGeneration == generation else {
                        output.yield(.failure(latest))
                        return
                    }
                    action = machine.backoffElapsed()
                case .resubscribe:
                    do throws(StreakClientError) {
                        source = try await subscribe(request)
                        machine.subscribed()
                        onReconnect?(error)
                        break reconnecting
                    } catch {
                        latest = error
                        action = machine.subscribeFailed(error)
                    }
                }
            }
        }
    }
}
