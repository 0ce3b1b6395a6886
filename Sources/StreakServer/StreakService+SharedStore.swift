import StreakCore
import StreakStorage

extension StreakService {
    /// Brings the in-memory state of users that another server changed (in a shared store) up to
    /// date, and pushes the changed days to this server's watchers. Runs on the store's completion
    /// queue, in order with this server's own acknowledged writes; reloading from the store is
    /// safe against those, because applying an acknowledged write twice changes nothing.
    func applyExternalChange(_ change: ExternalChange) {
        switch change {
        case .user(let id, let days):
            // A user not in memory is loaded fresh on first use.
            guard let user = users.loadedState(for: id) else { return }
            reload(user, days: days ?? [])
        case .everyone:
            for user in users.loadedStates() { reload(user, days: []) }
        }
    }

    private func reload(_ user: UserState, days: [CivilDate]) {
        do {
            let data = try users.data(of: user.id)
            let after = user.update(now: now()) { $0 = data }.1
            if !days.isEmpty { notifyWatchers(user, days: days, snapshot: after) }
        } catch {
            logger.warning(
                "cannot reload a user another server changed",
                metadata: ["user": "\(user.id)", "error": "\(error)"]
            )
        }
    }
}
