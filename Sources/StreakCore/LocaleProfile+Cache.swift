import Foundation

/// Profiles by the identifier they were asked for. Foundation only (the core imports nothing
/// else), so an `NSLock` guards the dictionary instead of `Synchronization.Mutex`.
final class LocaleProfileCache: @unchecked Sendable {
    // @unchecked: `profiles` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var profiles: [String: LocaleProfile] = [:]

    func profile(_ identifier: String) -> LocaleProfile? {
        lock.withLock { profiles[identifier] }
    }

    func store(_ profile: LocaleProfile, for identifier: String) {
        lock.withLock { profiles[identifier] = profile }
    }
}
