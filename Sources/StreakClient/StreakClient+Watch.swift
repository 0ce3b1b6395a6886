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
        let generation = closeGeneration
        let first = try await subscribe(request)
        guard reconnect.maxAttempts > 0 else { return StreakResponseStream(results: first) }
        let (results, continuation) = AsyncStream<CallResult>.makeStream()
        let relay = Task {
            await relayWatch(
                from: first,
                request: request,
                policy: reconnect,
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

    /// Forwards each subscription's results and resubscribes after an UNAVAILABLE end.
    /// Cancelling the task (the caller stopped iterating) ends the current subscription,
    /// which sends CANCEL.
    private func relayWatch(
        from first: AsyncStream<CallResult>,
        request: WireWatchRequest,
        policy: WatchReconnectPolicy,
        generation: Int,
        onReconnect: (@Sendable (StreakClientError) -> Void)?,
        to output: AsyncStream<CallResult>.Continuation
    ) async {
        defer { output.finish() }
        var source = first
        var failedAttempts = 0
        while true {
            let started = ContinuousClock.now
            var lost: StreakClientError?
            for await result in source {
                switch result {
                case .success:
                    failedAttempts = 0
                    output.yield(result)
                case .failure(let error):
                    lost = error
                }
            }
            if Task.isCancelled { return }
            guard var error = lost else { return }  // ended with OK
            guard error.code == .unavailable, closeGeneration == generation else {
                output.yield(.failure(error))
                return
            }
            if ContinuousClock.now - started >= policy.stableAfter { failedAttempts = 0 }
            let interruption = error
            // Connect and resubscribe; a failure to connect counts as an attempt too.
            reconnecting: while true {
                failedAttempts += 1
                guard failedAttempts <= policy.maxAttempts else {
                    error.message += " (gave up after \(policy.maxAttempts) reconnection attempts)"
                    output.yield(.failure(error))
                    return
                }
                do {
                    try await Task.sleep(for: policy.backoff(before: failedAttempts))
                } catch {
                    return  // cancelled
                }
                guard closeGeneration == generation else {
                    output.yield(.failure(error))
                    return
                }
                do throws(StreakClientError) {
                    source = try await subscribe(request)
                    onReconnect?(interruption)
                    break reconnecting
                } catch let failure where failure.code == .unavailable {
                    error = failure
                } catch {
                    output.yield(.failure(error))
                    return
                }
            }
        }
    }
}
