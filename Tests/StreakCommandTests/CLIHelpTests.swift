import Testing

/// Every command's `--help` shows examples, as the README promises: the commands are read from
/// `streak --help` (and each group's own help), so a new command is checked without a list here.
@Suite("streak help")
struct CLIHelpTests {
    /// The names under SUBCOMMANDS in a help text.
    static func subcommands(in help: String) -> [String] {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("SUBCOMMANDS:") }) else { return [] }
        // The list ends at its first blank line ("  See 'streak help <subcommand>'" follows).
        let list = lines[(start + 1)...].prefix { !$0.isEmpty }
        return list.compactMap { line in
            // "  name    abstract" (a name's line starts with two spaces and a letter).
            guard line.hasPrefix("  "), let first = line.dropFirst(2).first, first.isLetter else { return nil }
            return String(line.dropFirst(2).prefix { !$0.isWhitespace })
        }
    }

    @Test("every command and subcommand's --help has examples")
    func everyCommandHasExamples() throws {
        let top = try CLIRunner.run(["--help"])
        let commands = Self.subcommands(in: top.stdout)
        #expect(commands.count > 15 && commands.contains("server"), "\(commands)")
        var checked: [[String]] = []
        var missing: [String] = []
        for command in commands {
            let help = try CLIRunner.run([command, "--help"]).stdout
            let nested = Self.subcommands(in: help).filter { $0 != "help" }
            for path in [[command]] + nested.map({ [command, $0] }) {
                let text = path == [command] ? help : try CLIRunner.run(path + ["--help"]).stdout
                checked.append(path)
                if !text.contains("Examples:") { missing.append(path.joined(separator: " ")) }
            }
        }
        #expect(checked.contains(["habit", "archive"]) && checked.contains(["rest", "remove"]), "\(checked)")
        #expect(missing.isEmpty, "no examples in the help of: \(missing)")
    }

    @Test("day and rest add show how many days they take, though they parse a list (so that -3 is a day)")
    func fixedCountArgumentsShowTheirCount() throws {
        let day = try CLIRunner.run(["day", "--help"]).stdout
        #expect(day.contains("USAGE: streak day [<options>] [<date>]\n"), "\(day)")
        let rest = try CLIRunner.run(["rest", "add", "--help"]).stdout
        #expect(rest.contains("USAGE: streak rest add [<options>] <first-day> <last-day>\n"), "\(rest)")
        #expect(rest.contains("\n  <first-day> <last-day>  The first and the last day"), "\(rest)")
    }
}
