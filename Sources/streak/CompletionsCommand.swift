import ArgumentParser
import Foundation

/// `streak completions bash|zsh|fish`: the shell completion script, habit names included.
struct CompletionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "completions",
        abstract: "Print the completion script for a shell (habit names complete too).",
        discussion: """
            Examples:
              source <(streak completions bash)                  # bash, this shell
              streak completions bash > /etc/bash_completion.d/streak
              streak completions zsh > "${fpath[1]}/_streak"
              streak completions fish > ~/.config/fish/completions/streak.fish
            """
    )

    /// The shells swift-argument-parser writes scripts for.
    enum Shell: String, ExpressibleByArgument, CaseIterable {
        case bash, zsh, fish
    }

    @Argument(help: "bash, zsh or fish.") var shell: Shell

    func run() throws {
        let kind: CompletionShell =
            switch shell {
            case .bash: .bash
            case .zsh: .zsh
            case .fish: .fish
            }
        let script = Streak.completionScript(for: kind)
        print(shell == .bash ? BashHabitNames.caseInsensitive(script) : script, terminator: "")
    }
}

/// swift-argument-parser's bash script filters what `streak` offers for a habit through
/// `compgen -W`, which matches case-sensitively, so `streak done me<TAB>` would drop `Meditate`
/// although `streak` matched it. `streak` already offers only the names that start with the word
/// in any case, as the resolver reads them: the script takes them as they are.
enum BashHabitNames {
    /// The call the generated script makes for a custom completion.
    static let filtered = #"__streak_add_completions -W "$(__streak_custom_complete "#
    /// The same call, without the filter.
    static let unfiltered = #"__streak_add_offered "$(__streak_custom_complete "#
    /// Adds each line of its argument to COMPREPLY.
    static let function = """
        __streak_add_offered() {
            local completion
            while IFS='' read -r completion; do
                [[ -n "${completion}" ]] && COMPREPLY+=("${completion}")
            done <<< "${1}"
        }


        """

    /// `script` with habit names taken as `streak` offers them (unchanged when the generated
    /// script has no such call).
    static func caseInsensitive(_ script: String) -> String {
        guard script.contains(filtered), let start = script.range(of: "__streak_custom_complete() {") else {
            return script
        }
        var result = script
        result.insert(contentsOf: function, at: start.lowerBound)
        return result.replacingOccurrences(of: filtered, with: unfiltered)
    }
}
