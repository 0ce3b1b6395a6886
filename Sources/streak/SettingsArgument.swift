import Foundation
import StreakPOSIX

/// The values `streak settings` sends for `--time-zone` and `--locale`.
enum SettingsArgument {
    /// `--time-zone`: the zone as given, or this machine's IANA name for `local`.
    /// - Throws: `CLIFailure(.badInput)` for an empty value, or for `local` when `TZ` holds a POSIX
    ///   rule or an offset (`JST-9`, `GMT+5`): the machine's clock follows it, but it names no zone
    ///   the server could count days in, and `/etc/localtime` would silently name another one.
    static func timeZone(_ text: String, environment: [String: String]? = nil) throws(CLIFailure) -> String {
        guard !text.isEmpty else {
            throw CLIFailure(.badInput, "--time-zone is empty; give an IANA zone (Europe/Berlin) or local")
        }
        guard text == "local" else { return text }
        let environment = environment ?? ProcessInfo.processInfo.environment
        if let tz = MachineTimeZone.unnamedTZ(environment: environment) {
            throw CLIFailure(.badInput, unnamedTZMessage(tz))
        }
        return MachineTimeZone.identifier(environment: environment)
    }

    /// `--locale`: the identifier as given (the server judges it).
    /// - Throws: `CLIFailure(.badInput)` for an empty one, which would otherwise change nothing.
    static func locale(_ text: String) throws(CLIFailure) -> String {
        guard !text.isEmpty else { throw CLIFailure(.badInput, "--locale is empty; give a locale such as en_GB") }
        return text
    }

    /// Why `local` names no zone when `TZ` is `tz`, with the machine's offset now as the C library
    /// gives it (`TZ=GMT+5` is UTC−05:00, not UTC+5).
    static func unnamedTZMessage(_ tz: String) -> String {
        let offset = MachineTimeZone.currentOffset()
        return "--time-zone local: this machine's TZ is '\(tz)' (\(MachineTimeZone.offsetText(seconds: offset)) now), "
            + "which is not an IANA zone name, and the server needs one; give streak settings --time-zone "
            + "\(MachineTimeZone.zoneHint(seconds: offset)), or set TZ to one"
    }
}
