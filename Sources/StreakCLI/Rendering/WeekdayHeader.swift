public import StreakCore

/// The weekday names above a month page's columns: seven distinct, recognisable names, as narrow
/// as the locale allows.
///
/// The first of these that tells the seven days apart wins:
/// 1. the locale's very short names when each fits two columns (`日 一 二`, `CN T2 T3`, `א׳ ב׳`);
/// 2. the short names cut to two columns (`Su Mo Tu`, `Mo Di Mi`, `月 火 水`);
/// 3. what follows a word all seven names share, when it fits two columns (`周一` … `周日`: `一` … `日`);
/// 4. the short names cut to the fewest columns at which they differ, three or more, up to the
///    whole short name (`dom seg ter`, `Jumapil Jumatat`); the page's columns widen to match.
///
/// Names are cut by grapheme cluster and measured in terminal columns (`DisplayWidth`), so a cut
/// never splits a character from its marks and wide characters count twice.
public enum WeekdayHeader {
    /// The names to draw and the columns each takes at most.
    public struct Fit: Hashable, Sendable {
        /// Seven names in the page's order.
        public var symbols: [String]
        /// The widest name's columns (at least 2).
        public var width: Int
    }

    /// The header for `short` (the page's seven short names, in its order) and, when known, the
    /// same days' very short names in the same order.
    public static func fit(short: [String], veryShort: [String]? = nil) -> Fit {
        if let veryShort, veryShort.count == short.count, distinct(veryShort, fitting: 2) {
            return Fit(symbols: veryShort, width: 2)
        }
        let cut = short.map { cutting($0, to: 2) }
        if distinct(cut, fitting: 2) { return Fit(symbols: cut, width: 2) }
        if let rest = afterSharedWord(short), distinct(rest, fitting: 2) { return Fit(symbols: rest, width: 2) }
        let widest = short.map { DisplayWidth.of($0) }.max() ?? 2
        if widest >= 3 {
            for width in 3...widest {
                let cut = short.map { cutting($0, to: width) }
                if distinct(cut, fitting: width) { return Fit(symbols: cut, width: width) }
            }
        }
        return Fit(symbols: short, width: max(2, widest))
    }

    /// The very short names of `locale` in the order of `short`, when `short` are that locale's
    /// short names (a page built in another locale, or by another version, gets nil).
    public static func veryShortSymbols(matching short: [String], in locale: LocaleProfile) -> [String]? {
        let known = locale.shortWeekdaySymbols
        guard Set(known).count == known.count, locale.veryShortWeekdaySymbols.count == known.count else { return nil }
        var result: [String] = []
        for symbol in short {
            guard let index = known.firstIndex(of: symbol) else { return nil }
            result.append(locale.veryShortWeekdaySymbols[index])
        }
        return result
    }

    /// True when `names` are non-empty, all different and each at most `width` columns wide.
    static func distinct(_ names: [String], fitting width: Int) -> Bool {
        !names.contains { $0.isEmpty || DisplayWidth.of($0) > width } && Set(names).count == names.count
    }

    /// `name`'s widest prefix that fits `width` columns, without trailing spaces (`Th 2` in three
    /// columns is `Th`).
    static func cutting(_ name: String, to width: Int) -> String {
        var prefix = DisplayWidth.prefix(name, fitting: width)
        while prefix.last?.isWhitespace == true { prefix.removeLast() }
        return prefix
    }

    /// Each name without the leading characters all of them share (`周`, `星期`), or nil when
    /// they share none.
    static func afterSharedWord(_ names: [String]) -> [String]? {
        guard var shared = names.first.map(Array.init) else { return nil }
        for name in names.dropFirst() {
            shared = Array(zip(shared, name).prefix { $0 == $1 }.map(\.0))
        }
        guard !shared.isEmpty else { return nil }
        return names.map { name in
            var rest = Substring(name.dropFirst(shared.count))
            while rest.first?.isWhitespace == true { rest.removeFirst() }
            return String(rest)
        }
    }
}
