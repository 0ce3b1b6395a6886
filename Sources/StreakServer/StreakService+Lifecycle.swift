import Dispatch
import StreakCore
import StreakStorage
import StreakTransport
import StreakWire

/// The Watch events other than DAY_CHANGED, for the streams that asked for them
/// (`WatchRequest.lifecycle_events`): SUBSCRIBED, DAY_STARTED and SETTINGS_CHANGED.
extension StreakService {
    /// Registers a lifecycle stream and sends its SUBSCRIBED event, under the user's notification
    /// lock: every event of a change applied after the registration follows SUBSCRIBED, and a
    /// change applied before it is in what the client reads after SUBSCRIBED (the writes ask
    /// whether the user is watched under the same lock that applies them).
    /// - Returns: the registry's token.
    func registerLifecycleWatch(
        _ request: IncomingRequest,
        user: UserState,
        responder: Responder,
        asOf: CivilDate?,
        bearer: String
    ) throws -> UInt64 {
        let token = try user.withNotificationLock {
            let today = user.inspect(now: now()) { _, today in today }
            let token = try watchers.add(
                user: user.id,
                responder: responder,
                request: request,
                asOf: asOf,
                bearer: bearer,
                lifecycle: true,
                today: today
            )
            let (summary, _) = user.currentStreak(asOf: asOf, now: now())
            let event = WireWatchEvent(streak: WireStreakSummary(summary), kind: .subscribed)
            if !responder.sendStreamMessage(
                to: request.id,
                generation: request.generation,
                message: event.serializedBytes()
            ) {
                watchers.remove(user: user.id, token: token)
            }
            return token
        }
        startDayTicker()
        return token
    }

    /// Sends SETTINGS_CHANGED to the user's lifecycle streams when the settings changed, by a
    /// write of this server or of another one sharing the store. Any setting counts: `time_zone`
    /// and the day start move today, `min_percent` changes every day's `contributing` and the
    /// streak, and `week_start` and `locale` change how the user's heatmap is laid out and
    /// labelled, which another device showing it cannot learn otherwise.
    func notifySettingsChanged(_ user: UserState, from before: UserSettings, to after: UserSettings) {
        guard after != before, watchers.isWatched(user.id) else { return }
        user.withNotificationLock {
            let subscriptions = watchers.lifecycleSubscriptions(of: user.id)
            guard !subscriptions.isEmpty else { return }
            // The client re-reads now: a later DAY_STARTED for the new today would say nothing new.
            let today = user.inspect(now: now()) { _, today in today }
            _ = watchers.announce(today: today, to: user.id)
            send(.settingsChanged, to: subscriptions, of: user)
        }
    }

    /// Starts the check for new days unless it runs: once a second while a stream that gets
    /// DAY_STARTED events is open.
    private func startDayTicker() {
        guard watchers.claimDayTicker() else { return }
        scheduleDayTick()
    }

    private func scheduleDayTick() {
        workQueue.asyncAfter(deadline: .now() + .nanoseconds(Int(Self.dayTickInterval.nanoseconds))) {
            [relay] in
            guard let self = relay.current, !self.isClosed, self.watchers.keepDayTicker() else { return }
            self.announceDayStarts()
            self.scheduleDayTick()
        }
    }

    /// How often the users' todays are compared with those their streams last heard of: a
    /// DAY_STARTED event comes at most this late.
    static let dayTickInterval = Duration.seconds(1)

    /// Sends DAY_STARTED to the streams whose user's today is not the one they last heard of. Per
    /// watched user, a lock and a comparison of dates (the user's `TodayClock` keeps today until
    /// the day ends) unless a day started.
    private func announceDayStarts() {
        for id in watchers.usersFollowingToday() {
            guard let user = users.loadedState(for: id) else { continue }
            user.withNotificationLock {
                let today = user.inspect(now: now()) { _, today in today }
                let told = watchers.announce(today: today, to: id)
                if !told.isEmpty { send(.dayStarted, to: told, of: user) }
            }
        }
    }

    /// Sends one event of `kind` to each of `subscriptions` (call under the user's notification
    /// lock), with the streak as of each stream's `as_of`; DAY_STARTED carries today's day record.
    private func send(_ kind: WireWatchEvent.Kind, to subscriptions: [WatchRegistry.Subscription], of user: UserState) {
        deliver(to: subscriptions, of: user) { streak, current in
            var message = WireWatchEvent(streak: streak, kind: kind)
            if kind == .dayStarted { message.day = WireDayRecord(current.data.dayRecord(on: current.today)) }
            return [message.serializedBytes()]
        }
    }
}
