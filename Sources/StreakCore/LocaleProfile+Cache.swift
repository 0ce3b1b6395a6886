import Synchronization

/// Profiles by the identifier they were asked for.
final class LocaleProfileCache: Sendable {
    private let profiles = Mutex<[String: LocaleProfile]>([:])

    func profile(_ identifier: String) -> LocaleProfile? {
        profiles.withLock { $0[identifier] }
    }

    func store(_ profile: LocaleProfile, for identifier: String) {
        profiles.withLock { $0[identifier] = profile }
    }
}
