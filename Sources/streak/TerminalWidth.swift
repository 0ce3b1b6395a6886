import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The width the text heatmap must fit: the terminal's (ioctl TIOCGWINSZ on standard output),
/// else `COLUMNS`, else 80.
enum TerminalWidth {
    static let fallback = 80

    /// The width in columns.
    static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int {
        limit(environment: environment) ?? fallback
    }

    /// The width a table of names must fit, where there is one: the terminal's, else `COLUMNS`
    /// when set; nil on a pipe or a file without `COLUMNS`, where names are never cut.
    static func limit(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int? {
        if let columns = terminalColumns() { return columns }
        guard let text = environment["COLUMNS"], let columns = Int(text.trimmingCharacters(in: .whitespaces)),
            columns > 0
        else { return nil }
        return columns
    }

    /// The columns of the terminal on standard output; nil on a pipe, a file, or a terminal that
    /// reports no size (0, as a pseudo-terminal nobody sized does).
    static func terminalColumns() -> Int? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
