import StreakCore
import StreakFraming
import StreakStorage
import StreakWire

extension StreakService {
    /// Opens a Watch stream: it receives a WatchEvent after each committed completion change of the user.
    func startWatch(_ request: IncomingRequest, user: UserState, responder: Responder) throws {
        let message = try WireWatchRequest(serializedBytes: request.message)
        guard let token = watchers.add(user: user.id, responder: responder, requestID: request.id, asOf: message.asOf)
        else {
            throw ServiceError.shuttingDown
        }
        let userID = user.id
        responder.onStreamTermination(request.id) { [watchers] in
            watchers.remove(user: userID, token: token)
        }
    }

    /// Pushes one event per changed day to every watcher of the user (called right after the commit).
    func notifyWatchers(_ user: UserState, days: [CivilDate], snapshot: UserState.Snapshot) {
        let subscriptions = watchers.subscriptions(of: user.id)
        guard !subscriptions.isEmpty else { return }
        var encoded: [CivilDate?: [[UInt8]]] = [:]
        for subscription in subscriptions {
            let events: [[UInt8]]
            if let cached = encoded[subscription.asOf] {
                events = cached
            } else {
                let streak = WireStreakSummary(snapshot.data.streakSummary(asOf: subscription.asOf ?? snapshot.today))
                events = days.map { day in
                    WireWatchEvent.with {
                        $0.day = WireDayRecord(snapshot.data.dayRecord(on: day))
                        $0.streak = streak
                    }.serializedBytes()
                }
                encoded[subscription.asOf] = events
            }
            for event in events where !subscription.responder.sendStreamMessage(to: subscription.requestID, message: event) {
                watchers.remove(user: user.id, token: subscription.token)
                break
            }
        }
    }
}
