/// Whether and how renderers colour their output: ANSI 256-colour escapes, or plain text
/// that reads the same without them (distinct characters instead of colours).
public struct TerminalStyle: Hashable, Sendable {
    /// True to emit ANSI escape sequences.
    public var usesColor: Bool

    /// Creates a style.
    public init(usesColor: Bool) {
        self.usesColor = usesColor
    }

    /// Plain text, no escape bytes.
    public static let plain = TerminalStyle(usesColor: false)
    /// ANSI 256-colour output.
    public static let color = TerminalStyle(usesColor: true)

    /// When to colour output, as the `--color` flag says.
    public enum ColorChoice: String, CaseIterable, Sendable {
        /// Colour when standard output is a terminal and `NO_COLOR` is unset or empty.
        case auto
        /// Always colour, unless `NO_COLOR` is set.
        case always
        /// Never colour.
        case never
    }

    /// The style for a choice: `NO_COLOR` (non-empty, see no-color.org) always wins.
    /// - Parameters:
    ///   - choice: the `--color` flag.
    ///   - isTerminal: whether standard output is a terminal.
    ///   - environment: the process environment.
    public static func resolve(
        _ choice: ColorChoice,
        isTerminal: Bool,
        environment: [String: String]
    ) -> TerminalStyle {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .plain }
        switch choice {
        case .never: return .plain
        case .always: return .color
        case .auto: return TerminalStyle(usesColor: isTerminal && environment["TERM"] != "dumb")
        }
    }

    /// `text` in a 256-colour foreground.
    public func foreground(_ text: String, _ color: Int) -> String {
        usesColor ? "\u{1B}[38;5;\(color)m\(text)\u{1B}[0m" : text
    }

    /// `text` in bold.
    public func bold(_ text: String) -> String {
        usesColor ? "\u{1B}[1m\(text)\u{1B}[0m" : text
    }

    /// `text` dimmed.
    public func dim(_ text: String) -> String {
        usesColor ? "\u{1B}[2m\(text)\u{1B}[0m" : text
    }

    /// `text` in reverse video.
    public func reverse(_ text: String) -> String {
        usesColor ? "\u{1B}[7m\(text)\u{1B}[0m" : text
    }

    /// `text` underlined.
    public func underline(_ text: String) -> String {
        usesColor ? "\u{1B}[4m\(text)\u{1B}[0m" : text
    }
}
