import ArgumentParser
import StreakCLI
import StreakClient
import StreakCore
import StreakWire

#if canImport(Glibc)
import Glibc
#endif

/// `--theme light|dark|colorblind` and `-o FILE`: the colours and where the output goes.
struct PictureOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Colours: light, dark or colorblind (default: light for svg and html, dark on a terminal).",
            valueName: "theme"
        )
    )
    var theme: String?

    @Option(
        name: [.customShort("o"), .customLong("output")],
        help: ArgumentHelp(
            "Write to FILE (a temporary file renamed into place) instead of standard output.",
            valueName: "file"
        )
    )
    var output: String?

    /// The theme named by `--theme`, or nil when none was given.
    func parsedTheme() throws(CLIFailure) -> HeatmapTheme? {
        guard let theme else { return nil }
        guard let parsed = HeatmapTheme(named: theme) else {
            throw CLIFailure(.usage, "unknown --theme '\(theme)'; expected one of \(HeatmapTheme.names)")
        }
        return parsed
    }

    /// Prints `text`, or writes it to `-o FILE`.
    func deliver(_ text: String) throws(CLIFailure) {
        if let output {
            try OutputFile.write(text, to: output)
        } else {
            try StandardOutput.write(text)
        }
    }

    /// The short weekday names of the user's locale (Sunday first); English when it is unknown here.
    static func weekdayNames(settings: WireSettings) -> (locale: String, names: [String]) {
        let profile = (try? LocaleProfile.named(settings.locale)) ?? .english
        return (settings.locale.isEmpty ? profile.identifier : settings.locale, profile.shortWeekdaySymbols)
    }
}
