import FoundationEssentials
import FoundationInternationalization

/// What the core needs from a locale: its first weekday and its names for weekdays and months.
///
/// Weekday names are Foundation's format-context symbols, the ones `DateFormatter` uses for
/// "EEE" (de_DE: "Mo."), as the seeds do with `Calendar.shortWeekdaySymbols`. Month labels stand
/// alone above a column, so they are the standalone short names ("LLL": ru_RU "март", not the
/// "марта" of "5 марта"), and full month names in titles are standalone too.
///
/// Dates are always Gregorian, so every name and pattern is the Gregorian calendar's, whatever
/// calendar the locale uses by default (ar_SA, fa_IR: titles "مارس 2024", not an Islamic or
/// Persian form).
///
/// An identifier is accepted when Foundation lists it, or when ICU reads it as one that Foundation
/// lists: aliases replaced (`iw_IL` is `he_IL`, `no_NO` `nb_NO`, `tl_PH` `fil_PH`) and likely
/// subtags added (`zh_TW` is `zh_Hant_TW`, `sr_RS` `sr_Cyrl_RS`). The profile keeps the identifier
/// it was asked for and takes its data from the listed one.
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
    /// Short format-context ("MMM") month names, as inside a date ("5 марта"); January first.
    public let shortMonthSymbols: [String]
    /// Short standalone ("LLL") month names, as on their own ("март"): the heatmap's month labels;
    /// January first.
    public let shortStandaloneMonthSymbols: [String]
    /// Full standalone ("LLLL") month names, as in a title like "Februar 2024"; January first.
    public let monthSymbols: [String]
    /// Full format-context ("MMMM") month names, as inside a date ("5 октября"); January first.
    public let formatMonthSymbols: [String]
    /// The locale's own pattern for a year and a month in the Gregorian calendar (CLDR skeleton
    /// `yMMMM`): `MMMM y` in English, `y年M月` in Japanese, `LLLL y 'г'.` in Russian.
    public let yearMonthPattern: String

    /// The profile of `identifier` (`-` read as `_`).
    /// - Throws: `CoreError(.unknownIdentifier)` when the identifier is empty, or names no locale
    ///   Foundation lists, even after ICU's canonicalization.
    public static func named(_ identifier: String) throws(CoreError) -> LocaleProfile {
        if let builtIn = builtIn(identifier) { return builtIn }
        if let cached = cache.profile(identifier) { return cached }
        guard !identifier.isEmpty else { throw CoreError(.unknownIdentifier, "the locale is empty") }
        let normalized = identifier.replacing("-", with: "_")
        guard let listed = listedIdentifier(for: normalized) else {
            throw CoreError(.unknownIdentifier, "unknown locale \(identifier)")
        }
        let profile = LocaleProfile(locale: Locale(identifier: listed), identifier: normalized)
        cache.store(profile, for: identifier)
        return profile
    }

    /// The identifier Foundation lists that `identifier` stands for: itself, its canonical form
    /// (`iw_IL`: `he_IL`), or the listed one with the same likely script and region (`zh_TW`:
    /// `zh_Hant_TW`); nil for everything else (`xx_NOPE`, `de_XX`, `und`).
    static func listedIdentifier(for identifier: String) -> String? {
        if knownIdentifiers.contains(identifier) { return identifier }
        guard let canonical = LocaleIdentifier.canonical(identifier) else { return nil }
        if knownIdentifiers.contains(canonical) { return canonical }
        // "und" and "root" would otherwise stand for the likeliest locale of all, en_US.
        let language = canonical.prefix { $0 != "_" && $0 != "@" }
        guard !language.isEmpty, language != "und", language != "root",
            let maximal = LocaleIdentifier.maximal(canonical)
        else { return nil }
        return listedByMaximal[maximal]
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
        shortStandaloneMonthSymbols = calendar.shortStandaloneMonthSymbols
        monthSymbols = calendar.standaloneMonthSymbols
        formatMonthSymbols = calendar.monthSymbols
        // Without the keyword ICU answers in the locale's default calendar (Islamic for ar_SA,
        // Persian for fa_IR), with an era and that calendar's word order.
        yearMonthPattern =
            DatePatternGenerator.bestPattern(
                skeleton: "yMMMM",
                localeIdentifier: locale.identifier + "@calendar=gregorian"
            ) ?? "LLLL y"
    }

    /// English as Foundation gives it for `en`, `en_US` and `en_GB`; only the first weekday differs.
    private init(englishWithIdentifier identifier: String, firstWeekday: Weekday) {
        self.identifier = identifier
        self.firstWeekday = firstWeekday
        shortWeekdaySymbols = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        veryShortWeekdaySymbols = ["S", "M", "T", "W", "T", "F", "S"]
        shortMonthSymbols = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        shortStandaloneMonthSymbols = shortMonthSymbols
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
    /// Listed identifiers by their maximal form; where several share one (`zh`, `zh_Hans`,
    /// `zh_Hans_CN`), the most specific. Made on the first identifier that is not listed itself.
    private static let listedByMaximal: [String: String] = {
        var result: [String: String] = [:]
        for identifier in knownIdentifiers.sorted() {
            guard let maximal = LocaleIdentifier.maximal(identifier) else { continue }
            if let held = result[maximal], held.count >= identifier.count { continue }
            result[maximal] = identifier
        }
        return result
    }()
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
        case .locale(let identifier) where identifier.isEmpty:
            throw CoreError(.unknownIdentifier, "the week start's locale is empty")
        case .locale(let identifier): try LocaleProfile.named(identifier).firstWeekday
        }
    }
}
