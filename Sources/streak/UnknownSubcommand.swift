import ArgumentParser
import StreakCLI

/// Finds a word where a subcommand belongs that names none, and suggests the closest one.
///
/// The groups' default subcommands (`streak` alone is `today`, `streak habit` is `habit list`)
/// take no positional arguments, so any other word in that place is a mistyped subcommand, and
/// saying so beats the usage of the default command.
enum UnknownSubcommand {
    /// Global options that take a value (the next word is not a subcommand).
    static let valueOptions: Set<String> = [
        "--server", "--token", "--as-of", "--color", "--timeout", "--date", "--ca-file", "--tls-server-name",
    ]

    /// True when `arguments` name no subcommand and ask for no help or version: `streak`,
    /// `streak --json`, `streak --date yesterday` (all of them `today`).
    static func namesNoSubcommand(_ arguments: [String]) -> Bool {
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            if ["-h", "--help", "--version", "--", "help"].contains(word) || word.hasPrefix("--generate-")
                || word.hasPrefix("---") || word.hasPrefix("--experimental-")
            {
                return false
            }
            guard word.hasPrefix("-") else { return false }
            index += valueOptions.contains(word) ? 2 : 1
        }
        return true
    }

    /// The message for the first unknown subcommand in `arguments`, or nil when there is none.
    static func message(for arguments: [String], root: any ParsableCommand.Type) -> String? {
        // swift-argument-parser's own entries (completion callbacks, script generation) pass through.
        if arguments.contains(where: {
            $0.hasPrefix("---") || $0.hasPrefix("--generate-") || $0.hasPrefix("--experimental-")
        }) {
            return nil
        }
        var command = root
        var path = [root._commandName]
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            if word == "--" { return nil }
            if word.hasPrefix("-") {
                index += valueOptions.contains(word) ? 2 : 1
                continue
            }
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty, command.configuration.defaultSubcommand != nil || command == root else {
                return nil
            }
            if word == "help" && command == root { return nil }
            guard let next = subcommands.first(where: { $0._commandName == word }) else {
                // `streak --habit Gym streak`: a command's option and its value before the command.
                if index > 0, arguments[index - 1].hasPrefix("-"), index + 1 < arguments.count,
                    subcommands.contains(where: { $0._commandName == arguments[index + 1] })
                {
                    let option = "\(arguments[index - 1]) \(word)"
                    let fixed = (path + [arguments[index + 1], option]).joined(separator: " ")
                    return "'\(option)' goes after the command: \(fixed) (see: \(fixed.prefix { $0 != "-" })--help)"
                }
                let names = subcommands.map { $0._commandName }
                var message = "'\(word)' is not a \(path.joined(separator: " ")) command"
                if let suggestion = CommandSuggestion.closest(to: word, among: names) {
                    message += "; did you mean '\(suggestion)'?"
                } else {
                    message += "; the commands are \(names.joined(separator: ", "))"
                }
                return message + " (see: \(path.joined(separator: " ")) --help)"
            }
            command = next
            path.append(word)
            index += 1
        }
        return nil
    }
}
