import FoundationEssentials
import FoundationInternationalization

/// What the core needs from a locale: its first weekday and its names for weekdays and months.
///
/// Weekday and short month names are Foundation's format-context symbols, the ones
/// `DateFormatter` uses for "EEE" and "MMM" (de_DE: "Mo.", "März", "Jan."), as the seeds do
/// with `Calendar.shortWeekdaySymbols` and "MMM"; full month names (titles) are standalone.
///
/// Creating calendars and loading their symbols is expensive, so profiles are made once per identifier
/// and cached for the life of the process. English (`en`, `en_US`, `en_GB`) comes from constant
/// tables equal to what Foundation gives (see `LocaleTests`), so the default locale never loads
/// ICU's locale data into the server's memory.
public struct LocaleProfile: Hashable, Sendable {
    /// The locale identifier, e.g. `en_US`.
    public let identifier: String
    /// The first day of the week in this locale (en_US Sunday, en_GB Monday, ar_EG Saturday).
    public let firstWeekday: Weekday
    /// Short ("EEE") weekday names indexed by Foundation's numbering minus one (0 = Sunday).
    public let shortWeekdaySymbols: [String]
    /// Very short ("EEEEE") weekday names, indexed like `shortWeekdaySymbols`.
    public let veryShortWeekdaySymbols: [String]
    /// Short ("MMM") month names, January first.
    public let shortMonthSymbols: [String]
    /// Full standalone ("LLLL") month names, as in a title like "Februar 2024"; January first.
    public let monthSymbols: [String]
    /// Full format-context ("MMMM") month names, as inside a date ("5 октября"); January first.
    public let formatMonthSymbols: [String]
    /// The locale's own pattern for a year and a month (CLDR skeleton `yMMMM`): `MMMM y` in
    /// English, `y年M月` in Japanese, `LLLL y 'г'.` in Russian.
    public let yearMonthPattern: String

    /// The profile of `identifier`.
    /// - Throws: `CoreError(.unknownIdentifier)` when Foundation does not know the locale.
    public static func named(_ identifier: String) throws(CoreError) -> LocaleProfile {
        if let builtIn = builtIn(identifier) { return builtIn }
        if let cached = cache.profile(identifier) { return cached }
        let normalized = identifier.replacing("-", with: "_")
        guard !normalized.isEmpty, knownIdentifiers.contains(normalized) else {
            throw CoreError(.unknownIdentifier, "unknown locale \(identifier)")
        }
        let profile = LocaleProfile(locale: Locale(identifier: normalized), identifier: normalized)
        cache.store(profile, for: identifier)
        return profile
    }

    /// The default profile, en_US.
    public static let english = LocaleProfile(englishWithIdentifier: "en_US", firstWeekday: .sunday)

    /// The short name of `weekday`.
    public func shortName(of weekday: Weekday) -> String { shortWeekdaySymbols[weekday.rawValue - 1] }

    /// The seven weekdays starting at the first weekday of this locale.
    public var weekdays: [Weekday] { Weekday.ordered(startingAt: firstWeekday) }

    private init(locale: Locale, identifier: String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = locale
        self.identifier = identifier
        firstWeekday = Weekday(rawValue: calendar.firstWeekday) ?? .monday
        shortWeekdaySymbols = calendar.shortWeekdaySymbols
        veryShortWeekdaySymbols = calendar.veryShortWeekdaySymbols
        shortMonthSymbols = calendar.shortMonthSymbols
        monthSymbols = calendar.standaloneMonthSymbols
        formatMonthSymbols = calendar.monthSymbols
        yearMonthPattern =
            DatePatternGenerator.bestPattern(skeleton: "yMMMM", localeIdentifier: identifier) ?? "LLLL y"
    }

    /// English as Foundation gives it for `en`, `en_US` and `en_GB`; only the first weekday differs.
    private init(englishWithIdentifier identifier: String, firstWeekday: Weekday) {
        self.identifier = identifier
        self.firstWeekday = firstWeekday
        shortWeekdaySymbols = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        veryShortWeekdaySymbols = ["S", "M", "T", "W", "T", "F", "S"]
        shortMonthSymbols = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        monthSymbols = [
            "January", "February", "March", "April", "May", "June",
            "July", "August", "September", "October", "November", "December",
        ]
        formatMonthSymbols = monthSymbols
        yearMonthPattern = "MMMM y"
    }

    /// The constant profile of an English identifier, or nil for every other one.
    private static func builtIn(_ identifier: String) -> LocaleProfile? {
        switch identifier {
        case "en_US", "en-US": english
        case "en_GB", "en-GB": britishEnglish
        case "en": plainEnglish
        default: nil
        }
    }

    private static let britishEnglish = LocaleProfile(englishWithIdentifier: "en_GB", firstWeekday: .monday)
    private static let plainEnglish = LocaleProfile(englishWithIdentifier: "en", firstWeekday: .sunday)
    private static let cache = LocaleProfileCache()
    private static let knownIdentifiers = Set(Locale.availableIdentifiers).union(["en_US_POSIX"])
}

/// How a week's first day is chosen.
public enum WeekStartChoice: Hashable, Sendable {
    /// An explicit weekday.
    case weekday(Weekday)
    /// The first weekday of a locale, e.g. `en_US` (Sunday).
    case locale(String)

    /// The weekday this choice names.
    /// - Throws: `CoreError(.unknownIdentifier)` for an unknown locale.
    public func resolve() throws(CoreError) -> Weekday {
        switch self {
        case .weekday(let weekday): weekday
        case .locale(let identifier): try LocaleProfile.named(identifier).firstWeekday
        }
    }
}
