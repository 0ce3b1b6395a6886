import Dispatch
import StreakCore
import StreakFraming
import StreakStorage
import StreakTransport
import StreakWire

extension StreakService {
    /// Opens a Watch stream: it receives a WatchEvent after each committed change of the user's
    /// days, and with `lifecycle_events` the other kinds (`registerLifecycleWatch`).
    func startWatch(_ request: IncomingRequest, user: UserState, responder: Responder) throws {
        let message = try WireWatchRequest(serializedBytes: request.message)
        guard let bearer = BearerToken.from(request.metadata) else { throw ServiceError.unauthenticated }
        let token =
            message.lifecycleEvents
            ? try registerLifecycleWatch(
                request,
                user: user,
                responder: responder,
                asOf: message.asOf,
                bearer: String(bearer)
            )
            : try watchers.add(
                user: user.id,
                responder: responder,
                request: request,
                asOf: message.asOf,
                bearer: String(bearer)
            )
        let userID = user.id
        responder.onStreamTermination(request.id, generation: request.generation) { [watchers] in
            watchers.remove(user: userID, token: token)
        }
        // A watched user stays in memory (the registry does not evict it); one evicted before
        // the stream was registered is loaded again, so that other servers' changes reach it.
        // When that load fails, the stream would miss those changes without a sign: it ends
        // UNAVAILABLE instead, and the client subscribes again (and reads again) later.
        users.ensureLoaded(userID, on: workQueue) { [watchers, logger] error in
            logger.warning(
                "ended a user's Watch streams: the user could not be loaded",
                metadata: ["user": "\(userID)", "error": "\(ServiceError.status(for: error).message)"]
            )
            watchers.end(user: userID, status: ServiceError.watchedUserNotLoaded.status)
        }
    }

    /// Pushes one event per changed day to every watcher of the user (called right after the
    /// change was applied, by this server's writes and by the changes of other servers).
    ///
    /// The events are encoded from the state current when they are sent, under the user's
    /// notification lock: this server's writes and other servers' changes are applied on
    /// different queues, and this keeps a watcher's last event of a day from showing an older
    /// state than an earlier one.
    func notifyWatchers(_ user: UserState, days: [CivilDate]) {
        guard watchers.isWatched(user.id) else { return }
        user.withNotificationLock {
            deliver(to: watchers.subscriptions(of: user.id), of: user) { streak, current in
                days.map { day in
                    WireWatchEvent.with {
                        $0.day = WireDayRecord(current.data.dayRecord(on: day))
                        $0.streak = streak
                    }.serializedBytes()
                }
            }
        }
    }

    /// Sends each of `subscriptions` the events `encode` makes (call under the user's notification
    /// lock). They are made once for each `as_of` the streams asked for, from the streak as of it
    /// (shared with the write's answers) and the user's data as they are now; a stream that is
    /// gone, or ended because its client reads too slowly, is removed.
    func deliver(
        to subscriptions: [WatchRegistry.Subscription],
        of user: UserState,
        encode: (_ streak: WireStreakSummary, _ current: UserState.Snapshot) -> [[UInt8]]
    ) {
        var encoded: [CivilDate?: [[UInt8]]] = [:]
        for subscription in subscriptions {
            let events: [[UInt8]]
            if let cached = encoded[subscription.asOf] {
                events = cached
            } else {
                let (summary, current) = user.currentStreak(asOf: subscription.asOf, now: now())
                events = encode(WireStreakSummary(summary), current)
                encoded[subscription.asOf] = events
            }
            for event in events
            where !subscription.responder.sendStreamMessage(
                to: subscription.requestID,
                generation: subscription.generation,
                message: event
            ) {
                watchers.remove(user: user.id, token: subscription.token)
                break
            }
        }
    }

    /// Every token-cache lifetime, checks the tokens of open streams again: a Watch or ExportData
    /// stream whose token was revoked (`streakd user revoke`, even from another process) ends
    /// UNAUTHENTICATED.
    func scheduleStreamRecheck() {
        let interval = max(configuration.tokenCacheTTL, .milliseconds(100))
        workQueue.asyncAfter(deadline: .now() + .nanoseconds(Int(interval.nanoseconds))) { [relay] in
            guard let self = relay.current, !self.isClosed else { return }
            self.recheckStreams()
            self.scheduleStreamRecheck()
        }
    }

    private func recheckStreams() {
        let streams = watchers.bearers().merging(exports.bearers()) { watch, _ in watch }
        for (bearer, user) in streams {
            do {
                guard try userID(for: bearer[...]) != user else { continue }
                watchers.end(bearer: bearer, status: ServiceError.revoked.status)
                exports.end(bearer: bearer, status: ServiceError.revoked.status)
            } catch {
                // The store cannot answer now: keep the streams, ask again next time.
                logRecheckFailure(error)
            }
        }
    }
}

extension StreakService {
    /// A throttled line: streams whose token could not be checked again stay open meanwhile.
    fileprivate func logRecheckFailure(_ error: any Error) {
        guard let failures = recheckFailures.withLock({ $0.count(now: clock.nanoseconds) }) else { return }
        logger.notice(
            "could not check the tokens of open streams again; they stay open until a check succeeds",
            metadata: [
                "error": "\(ServiceError.status(for: error).message)",
                "failures": "\(failures) since the last such line",
            ]
        )
    }
}

extension ServiceError {
    static let revoked = ServiceError(.unauthenticated, "the bearer token is no longer valid")
    static let watchedUserNotLoaded = ServiceError(
        .unavailable,
        "the server could not load this user's data to follow its changes; watch again later"
    )
}
