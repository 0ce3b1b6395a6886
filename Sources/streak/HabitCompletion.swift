import ArgumentParser
import StreakClient

/// Shell completion of habit names: the completion script calls `streak` back (a hidden helper
/// entry of swift-argument-parser), which asks streakd for the habits and prints the names that
/// start with what was typed. Silent on any failure: a completion never prints errors.
enum HabitCompletion {
    static let kind = CompletionKind.custom { (words: [String], _: Int, prefix: String) async -> [String] in
        await names(words: words, prefix: prefix)
    }

    /// The names of the user's live habits that start with `prefix` (case-insensitively).
    static func names(words: [String], prefix: String) async -> [String] {
        guard
            var configuration = try? ClientConfiguration.resolve(
                server: value(of: "--server", in: words),
                token: value(of: "--token", in: words),
                tls: words.contains("--tls"),
                caFile: value(of: "--ca-file", in: words),
                tlsServerName: value(of: "--tls-server-name", in: words),
                insecurePlaintext: words.contains("--insecure-plaintext")
            )
        else { return [] }
        configuration.connectTimeout = .seconds(1)
        configuration.defaultDeadline = .seconds(2)
        let client = StreakClient(configuration: configuration)
        defer { client.close() }
        guard let habits = try? await client.listHabits(includeArchived: false) else { return [] }
        let lowered = unquoted(prefix).lowercased()
        return habits.map(\.name).filter { $0.lowercased().hasPrefix(lowered) }
    }

    /// The word after `option` on the command line (`--server 127.0.0.1:7411`), or in `--option=value`.
    static func value(of option: String, in words: [String]) -> String? {
        for (index, word) in words.enumerated() {
            if word == option, index + 1 < words.count { return unquoted(words[index + 1]) }
            if word.hasPrefix(option + "=") { return unquoted(String(word.dropFirst(option.count + 1))) }
        }
        return nil
    }

    /// A shell word without its surrounding quotes (words arrive verbatim).
    static func unquoted(_ word: String) -> String {
        var text = Substring(word)
        if let first = text.first, first == "'" || first == "\"" {
            text = text.dropFirst()
            if text.last == first { text = text.dropLast() }
        }
        return String(text).replacingOccurrences(of: "\\ ", with: " ")
    }
}
