import StreakClient
import StreakWire

extension StreakClientError {
    /// The server names a habit by its id (`habit 20 is not active on 2026-11-27`), which the
    /// person who typed `read` may not know: the message with each of `habits` named as the
    /// command line shows habits, `'Read' (#20)`. Errors found locally are left as they are.
    func namingHabits(_ habits: [WireHabit]) -> StreakClientError {
        guard origin == .server else { return self }
        var named = self
        for habit in habits {
            named.message = HabitNaming.replace(id: habit.id, with: "'\(habit.name)' (#\(habit.id))", in: named.message)
        }
        return named
    }
}

enum HabitNaming {
    /// `text` with every `habit ID` not followed by a digit replaced by `name`.
    static func replace(id: Int64, with name: String, in text: String) -> String {
        let needle = "habit \(id)"
        var result = ""
        var rest = Substring(text)
        while let range = rest.firstRange(of: needle) {
            let followedByDigit = rest[range.upperBound...].first?.isNumber ?? false
            result += rest[..<range.lowerBound]
            result += followedByDigit ? String(rest[range]) : name
            rest = rest[range.upperBound...]
        }
        return result + rest
    }

    /// Runs `body`, naming `habits` in a server error it throws.
    static func naming<T>(_ habits: [WireHabit], _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as StreakClientError {
            throw error.namingHabits(habits)
        }
    }
}
