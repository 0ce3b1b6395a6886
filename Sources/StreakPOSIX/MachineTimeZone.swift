public import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// This machine's time zone as an IANA identifier: `TZ`, else the target of `/etc/localtime`,
/// else `/etc/timezone`, else UTC. A source that names no IANA zone (a POSIX rule such as
/// `JST-9`, an offset such as `GMT+5`) is passed over: `unnamedTZ` tells the caller.
///
/// Foundation's `TimeZone.current` gives the same zone but not always its IANA name (a copied
/// `/etc/localtime` becomes `GMT+01:00`-like names, which a server in another place cannot use),
/// so the sources are read here in the order the C library reads them.
public enum MachineTimeZone {
    /// The machine's zone identifier, from the process's environment and files.
    public static func identifier(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        resolve(
            tz: environment["TZ"],
            localtimeTarget: linkTarget("/etc/localtime"),
            timezoneFile: try? String(contentsOfFile: "/etc/timezone", encoding: .utf8)
        )
    }

    /// The first source that names a zone Foundation knows, by the rules of `identifier()`.
    /// - Parameters:
    ///   - tz: the `TZ` variable (`Europe/Berlin`, `:Europe/Berlin` or a path into a zoneinfo directory).
    ///   - localtimeTarget: where `/etc/localtime` points (`/usr/share/zoneinfo/Europe/Berlin`).
    ///   - timezoneFile: the contents of `/etc/timezone` (Debian's name of the zone).
    public static func resolve(tz: String?, localtimeTarget: String?, timezoneFile: String?) -> String {
        let candidates = [
            tz.map(fromTZ), localtimeTarget.map(zoneName(inPath:)), timezoneFile.map { $0.trimmingWhitespace() },
        ]
        // An offset name is skipped wherever it comes from: `GMT+5` is five hours behind UTC to
        // the C library and five ahead to Foundation, so either reading would be wrong somewhere.
        for case let candidate? in candidates where known(candidate) && !isOffset(candidate) {
            return candidate
        }
        return "UTC"
    }

    /// `TZ`'s value when it is set but names no IANA zone: a POSIX rule such as `JST-9` or
    /// `EST5EDT,M3.2.0,M11.1.0`, or an offset such as `GMT+5`. The C library (and so `date`)
    /// follows such a rule, while `identifier()` can only name another source's zone, so "this
    /// machine's zone" has no IANA name to store; nil when `TZ` is unset, empty or names a zone.
    public static func unnamedTZ(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard let tz = environment["TZ"], !tz.isEmpty else { return nil }
        let name = fromTZ(tz)
        return known(name) && !isOffset(name) ? nil : tz
    }

    /// True for `GMT+5`, `UTC-03:00` and the like: Foundation reads them as offsets with the sign
    /// the other way round from POSIX (`TZ=GMT+5` is five hours *behind* UTC). `GMT+0` and `GMT-0`
    /// are IANA's own names for UTC.
    public static func isOffset(_ name: String) -> Bool {
        guard name != "GMT+0", name != "GMT-0" else { return false }
        return ["GMT+", "GMT-", "UTC+", "UTC-"].contains { name.hasPrefix($0) }
    }

    /// This machine's offset from UTC at `instant`, in seconds east, as the C library computes
    /// it from `TZ` (a POSIX rule included): what `date` shows.
    public static func currentOffset(at instant: Date = Date()) -> Int {
        var seconds = time_t(instant.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return 0 }
        return Int(parts.tm_gmtoff)
    }

    /// `UTC+09:00`, `UTC−05:00` (a minus sign), `UTC` for zero.
    public static func offsetText(seconds: Int) -> String {
        guard seconds != 0 else { return "UTC" }
        let minutes = abs(seconds) / 60
        let hours = String(minutes / 60)
        let rest = String(minutes % 60)
        return "UTC" + (seconds < 0 ? "\u{2212}" : "+") + (hours.count < 2 ? "0" : "") + hours + ":"
            + (rest.count < 2 ? "0" : "") + rest
    }

    /// The IANA zone that keeps `seconds` from UTC all year, when there is one: `Etc/GMT+5` for
    /// UTC−05:00 (the `Etc` names count the other way, as POSIX does), `Etc/UTC` for zero; nil for
    /// an offset that is not whole hours or lies outside UTC−12:00...UTC+14:00.
    public static func fixedOffsetZone(seconds: Int) -> String? {
        guard seconds % 3_600 == 0, (-12...14).contains(seconds / 3_600) else { return nil }
        let hours = seconds / 3_600
        return hours == 0 ? "Etc/UTC" : "Etc/GMT" + (hours < 0 ? "+" : "-") + String(abs(hours))
    }

    /// What to suggest to someone whose clock is `seconds` from UTC and names no IANA zone: their
    /// region's zone, or the fixed one for that offset (`Etc/GMT+5`) when there is one.
    public static func zoneHint(seconds: Int) -> String {
        let fixed = fixedOffsetZone(seconds: seconds).map {
            ", or \($0) for \(offsetText(seconds: seconds)) all year (no daylight saving time)"
        }
        return "your region's IANA zone (e.g. Europe/Berlin)" + (fixed ?? "")
    }

    static func fromTZ(_ value: String) -> String {
        let name = value.hasPrefix(":") ? String(value.dropFirst()) : value
        return name.hasPrefix("/") ? zoneName(inPath: name) : name
    }

    /// `Europe/Berlin` from `/usr/share/zoneinfo/Europe/Berlin` (or `../usr/share/zoneinfo/...`).
    static func zoneName(inPath path: String) -> String {
        guard let range = path.firstRange(of: "zoneinfo/") else { return path }
        var name = String(path[range.upperBound...])
        // Debian's posix/ and right/ trees hold the same zones.
        for tree in ["posix/", "right/"] where name.hasPrefix(tree) {
            name.removeFirst(tree.count)
        }
        return name
    }

    static func known(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix("/") && TimeZone(identifier: name) != nil
    }

    static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
