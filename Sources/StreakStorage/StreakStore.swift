import Dispatch
import FoundationEssentials
import StreakCore

/// A user's identifier.
public typealias UserID = Int64

/// A user as the administrator sees it. The token is never stored, only its hash.
public struct UserRecord: Hashable, Sendable {
    /// The identifier.
    public var id: UserID
    /// The unique name given at creation.
    public var name: String
    /// When the user was created.
    public var createdAt: Date
    /// Whether the token was revoked.
    public var revoked: Bool

    /// Creates a record.
    public init(id: UserID, name: String, createdAt: Date, revoked: Bool) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.revoked = revoked
    }
}

/// One change to a habit's state on one day (done, skipped or nothing).
public enum CompletionChange: Hashable, Sendable {
    /// The habit was done on the date (idempotent); a skip that day is withdrawn.
    case record(habitID: Int64, date: CivilDate)
    /// The habit was not done on the date after all (idempotent); a skip stays.
    case remove(habitID: Int64, date: CivilDate)
    /// The habit is excused on the date (idempotent); a completion that day is removed. The habit
    /// must be active that day.
    case skip(habitID: Int64, date: CivilDate)
    /// The skip is withdrawn (idempotent).
    case unskip(habitID: Int64, date: CivilDate)
}

extension CompletionChange {
    /// The day the change is about.
    public var date: CivilDate {
        switch self {
        case .record(_, let date), .remove(_, let date), .skip(_, let date), .unskip(_, let date): date
        }
    }

    /// The habit the change is about.
    public var habitID: Int64 {
        switch self {
        case .record(let id, _), .remove(let id, _), .skip(let id, _), .unskip(let id, _): id
        }
    }

    /// What the change does to the habit's day.
    public var action: HabitDayAction {
        switch self {
        case .record: .complete
        case .remove: .uncomplete
        case .skip: .skip
        case .unskip: .unskip
        }
    }
}

/// A change to one user's data, applied durably by `StreakStore.submit`.
public enum StoreWrite: Sendable {
    /// A new habit, active from `createdOn`, expected on `schedule` from then on (nil: every day).
    case createHabit(name: String, createdOn: CivilDate, schedule: WeekdaySet? = nil)
    /// The habit is expected on `weekdays` from `from` on (replacing an entry of that date).
    case setSchedule(habitID: Int64, weekdays: WeekdaySet, from: CivilDate)
    /// A new rest period with a note (at most `RestPeriodRecord.maximumNoteLength` characters).
    case addRestPeriod(RestPeriod, note: String)
    /// The rest period with this id goes away.
    case removeRestPeriod(id: Int64)
    /// A new name for a habit.
    case renameHabit(id: Int64, name: String)
    /// The habit stops counting from `on` (that day included).
    case archiveHabit(id: Int64, on: CivilDate)
    /// Completions added and removed, all or nothing, in order.
    case completions([CompletionChange])
    /// New settings, every field replaced.
    case updateSettings(UserSettings)
    /// Some fields of the settings changed, merged with the stored ones inside the write.
    case changeSettings(SettingsChange)
    /// The habit, its schedule, completions and skips go away.
    case deleteHabit(id: Int64)
    /// An archived habit counts again from its archive day on.
    case unarchiveHabit(id: Int64)
    /// Habits matched by name or created, with their history, rest periods and settings: every
    /// record that can be applied is, idempotently; the others are reported (`ImportOutcome`).
    case importData(ImportBatch)
}

/// What a write produced.
public enum StoreWriteResult: Sendable, Hashable {
    /// The habit as it is now stored.
    case habit(Habit)
    /// One flag per change: whether it changed anything (recording twice counts once).
    case completions(changed: [Bool])
    /// The settings as they are now stored.
    case settings(UserSettings)
    /// The rest period added or removed.
    case restPeriod(RestPeriodRecord)
    /// The habit as it was before it was deleted, and the days its completions and skips were on.
    case deletedHabit(Habit, completions: [CivilDate], skips: [CivilDate])
    /// What an import applied and what it refused.
    case imported(ImportOutcome)
}

/// What of one user's data a commit changed.
public struct ChangedData: Hashable, Sendable {
    /// The days whose completions or skips changed, ascending.
    public var days: [CivilDate]
    /// Whether habits (with their schedules), rest periods or settings changed.
    public var habitsOrSettings: Bool
    /// Whether anything may have changed (an import, more days than a notice lists, or a notice
    /// of a server that does not say which parts changed).
    public var everything: Bool

    /// A change of these parts.
    public init(days: [CivilDate] = [], habitsOrSettings: Bool = false, everything: Bool = false) {
        self.days = days
        self.habitsOrSettings = habitsOrSettings
        self.everything = everything
    }

    /// Anything of the user's may have changed.
    public static let all = ChangedData(everything: true)

    /// Whether it names nothing at all.
    public var isEmpty: Bool { days.isEmpty && !habitsOrSettings && !everything }

    /// This change and `other` together.
    public func merged(with other: ChangedData) -> ChangedData {
        if everything || other.everything { return .all }
        let days =
            self.days.isEmpty ? other.days : other.days.isEmpty ? self.days : Set(self.days + other.days).sorted()
        return ChangedData(days: days, habitsOrSettings: habitsOrSettings || other.habitsOrSettings)
    }
}

/// A change that another server committed to a store they share.
public enum ExternalChange: Sendable, Hashable {
    /// The user's data changed, in these parts.
    case user(UserID, ChangedData)
    /// Changes may have been missed (the connection that listens for them was lost and
    /// restored): every user's data may have changed.
    case everyone
}

/// The completions and skips of some of a user's days, as the store has them.
public struct DayRows: Hashable, Sendable {
    /// The completions on those days.
    public var completions: [Completion]
    /// The skips on those days.
    public var skips: [Skip]

    public init(completions: [Completion], skips: [Skip]) {
        self.completions = completions
        self.skips = skips
    }
}

/// One habit's day of one user.
public struct HabitDay: Hashable, Sendable {
    public var user: UserID
    public var habitID: Int64
    public var date: CivilDate

    public init(user: UserID, habitID: Int64, date: CivilDate) {
        self.user = user
        self.habitID = habitID
        self.date = date
    }
}

/// A user's habits (with their schedules), rest periods and settings, as the store has them.
public struct HabitsAndSettings: Hashable, Sendable {
    /// The habits, archived ones included, by id.
    public var habits: [Habit]
    /// The rest periods, ascending by first day then id.
    public var restPeriods: [RestPeriodRecord]
    /// The settings.
    public var settings: UserSettings

    public init(habits: [Habit], restPeriods: [RestPeriodRecord], settings: UserSettings) {
        self.habits = habits
        self.restPeriods = restPeriods
        self.settings = settings
    }
}

/// Where Streakd keeps users, habits, completions and settings.
///
/// Every row belongs to exactly one user and every key starts with the user's id, so an
/// implementation on PostgreSQL can be shared by several servers and distributed by user
/// (Citus: `user_id` as the distribution column). Reads are synchronous and rare (the server
/// caches a user's state after the first load); writes are asynchronous so that a single
/// writer can group concurrent writes into one durable transaction.
///
/// Schema (see `Migration`): `habits (user_id, id)`, `completions (user_id, habit_id, day)` and
/// `settings (user_id)` all lead their primary key with the user, so they shard by user; `users`
/// (name, token hash) is small and would be a Citus reference table. Several servers sharing
/// one PostgreSQL route each user to one server (by user id), so each server is the only
/// writer for its users and its per-user cache stays valid; habit ids come from a sequence.
public protocol StreakStore: AnyObject, Sendable {
    /// Creates a user and its token. - Throws: `.alreadyExists`, `.invalidArgument`.
    func createUser(name: String) throws(StorageError) -> (user: UserRecord, token: String)
    /// Creates users and their tokens in one transaction: all of them, or none when one fails.
    /// - Returns: each new user with its token, in the order of `names`.
    /// - Throws: `.invalidArgument` for a name that `createUser` would refuse, `.alreadyExists`
    ///   for a name that exists or that `names` holds twice; `item` is the index in `names` of
    ///   the first such name (nil when a concurrent writer took a name during the transaction).
    func createUsers(names: [String]) throws(StorageError) -> [(user: UserRecord, token: String)]
    /// Every user, by id.
    func users() throws(StorageError) -> [UserRecord]
    /// Revokes the user's token: it no longer authenticates.
    /// - Returns: true when the user was active, false when it was already revoked (nothing changes).
    /// - Throws: `.notFound` when there is no such user.
    @discardableResult
    func revokeUser(name: String) throws(StorageError) -> Bool
    /// Gives a user that is not revoked a new token, which replaces (revokes) the old one.
    /// - Returns: the new token. - Throws: `.notFound` when no such user is active.
    func issueToken(name: String) throws(StorageError) -> String
    /// The user a token belongs to, or nil when the token is unknown or revoked.
    func authenticate(token: String) throws(StorageError) -> UserID?
    /// The user's habits, archived ones included, by id.
    func habits(of user: UserID) throws(StorageError) -> [Habit]
    /// The user's completions.
    func completions(of user: UserID) throws(StorageError) -> [Completion]
    /// The user's skips, by day then habit.
    func skips(of user: UserID) throws(StorageError) -> [Skip]
    /// The user's rest periods, ascending by first day then id.
    func restPeriods(of user: UserID) throws(StorageError) -> [RestPeriodRecord]
    /// The user's settings (the defaults until changed).
    func settings(of user: UserID) throws(StorageError) -> UserSettings
    /// The user's habits, completions, skips, rest periods and settings together (what loading
    /// a user reads), as one snapshot where the store can read it at once.
    func snapshot(of user: UserID) throws(StorageError) -> UserSnapshot
    /// The completions and skips of the user on `days` (the rows a change notice names), read in
    /// one statement, on a connection of their own where the store has one (so that following
    /// other servers never waits behind loads and authentication).
    func dayRows(of user: UserID, on days: [CivilDate]) throws(StorageError) -> DayRows
    /// Which of `keys` (any users') are done and which are skipped (the others hold nothing), read
    /// like `dayRows` in one statement: a server following others reads the days of every user
    /// they changed in one round trip.
    func habitDays(_ keys: [HabitDay]) throws(StorageError) -> (done: [HabitDay], skipped: [HabitDay])
    /// The user's habits with their schedules, rest periods and settings, read like `dayRows`.
    func habitsAndSettings(of user: UserID) throws(StorageError) -> HabitsAndSettings
    /// Every completion and skip of the user, read like `dayRows`.
    func allDayRows(of user: UserID) throws(StorageError) -> DayRows
    /// Calls `hook` after the completions of each group commit, on the thread that ran them: work
    /// that those completions set aside for their whole batch (the answers, which then share one
    /// streak summary per user) runs there, before the next batch's completions. Add hooks
    /// before serving.
    func onBatchAcknowledged(_ hook: @escaping @Sendable () -> Void)
    /// Applies `write` durably, then calls `completion` on the store's acknowledging thread, one
    /// group commit after the other in commit order (do not block in it).
    func submit(
        _ write: StoreWrite,
        for user: UserID,
        completion: @escaping @Sendable (Result<StoreWriteResult, StorageError>) -> Void
    )
    /// Finishes queued writes and closes the store; later calls fail with `.closed`.
    func close()
    /// Calls `handler` for every change another server commits to a store they share, in the order
    /// the changes were committed, on a serial queue of the store's own (not the writer thread that
    /// runs `submit`'s completions: following other servers must never delay the acknowledgements
    /// of this server's writes).
    /// The handler should return quickly. A store that no other server writes (SQLite) never
    /// calls it. Set it once, before serving.
    func onExternalChange(_ handler: @escaping @Sendable (ExternalChange) -> Void)
    /// Calls `handler` when a piece of the store's background upkeep (`StoreUpkeep`) starts
    /// failing, and when it works again: once per change, not once per attempt. The store carries
    /// on either way; the handler should only tell the operator. It may be called on the store's
    /// writer thread, inside a commit (SQLite's checkpoints): it must return quickly and never call
    /// the store. A store with no upkeep that can fail never calls it. Set it once, before
    /// `onExternalChange` and before serving.
    func onUpkeepReport(_ handler: @escaping @Sendable (StoreUpkeepReport) -> Void)
}

extension StreakStore {
    /// No other server writes this store: nothing to report.
    public func onExternalChange(_ handler: @escaping @Sendable (ExternalChange) -> Void) {}

    /// No upkeep that can fail: nothing to report.
    public func onUpkeepReport(_ handler: @escaping @Sendable (StoreUpkeepReport) -> Void) {}
}
