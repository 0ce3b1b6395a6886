import ArgumentParser

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
        print(Streak.completionScript(for: kind), terminator: "")
    }
}
