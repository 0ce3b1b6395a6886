import Foundation
import StreakCore

/// One row of Loop's Habits.csv, checked.
struct LoopHabitRow: Hashable, Sendable {
    /// Loop's kind of habit.
    enum Kind: Hashable, Sendable {
        /// A yes-or-no habit (Loop's YES_NO).
        case yesNo
        /// A measurable habit (Loop's NUMERICAL) with its target.
        case measurable(atMost: Bool, target: Double, unit: String)
        /// An export without a Type column (the Java versions, early Kotlin ones): yes-or-no unless its
        /// values say otherwise.
        case unknown
    }

    /// The line in Habits.csv.
    var line: Int
    /// The 1-based position, which names the habit's folder ("001 Meditate").
    var position: Int
    /// The name, its control characters turned into spaces (`LoopHabitName`).
    var name: String
    /// True when `name` is not Loop's: it had line breaks, tabs or other control characters.
    var nameCleaned = false
    var kind: Kind
    /// "N times in D days" (1 in 1 is daily), when the export has it.
    var frequency: Frequency?
    /// Nil when the export has no Archived? column.
    var archived: Bool?

    /// Loop's frequency: so many repetitions in so many days.
    struct Frequency: Hashable, Sendable {
        var numerator: Int
        var denominator: Int
    }
}

/// Loop's Habits.csv: one row per habit, the columns of the version that wrote it.
enum LoopHabitsFile {
    /// The columns any version of Loop writes (docs/LOOP-IMPORT.md lists which has which).
    static let knownColumns = [
        "Position", "Name", "Type", "Question", "Description", "NumRepetitions", "Interval",
        "FrequencyNumerator", "FrequencyDenominator", "Color", "Unit", "Target Type", "Target Value", "Archived?",
    ]

    static let expectedColumnsText =
        "Loop's Habits.csv has Position and Name, and in some versions Type, Question, Description, "
        + "NumRepetitions and Interval (or FrequencyNumerator and FrequencyDenominator), Color, Unit, "
        + "Target Type, Target Value and Archived?"

    /// The longest habit name Streakd takes.
    static let maximumNameLength = TextLength.maximum

    /// Reads Habits.csv; `file` names it in errors.
    static func parse(_ bytes: [UInt8], file: String) throws(ImportError) -> [LoopHabitRow] {
        let records = try CSVReader.records(bytes, file: file)
        guard let header = records.first else {
            throw ImportError(file: file, line: 1, message: "is empty; expected a header row. " + expectedColumnsText)
        }
        let columns = try columnIndex(header, file: file)
        var rows: [LoopHabitRow] = []
        var lineOfPosition: [Int: Int] = [:]
        for record in records.dropFirst() {
            guard record.fields.count == header.fields.count else {
                throw ImportError(
                    file: file,
                    line: record.line,
                    message: "has \(record.fields.count) fields where the header has \(header.fields.count)"
                )
            }
            let row = try parseRow(record, columns: columns, file: file)
            if let earlier = lineOfPosition[row.position] {
                throw ImportError(
                    file: file,
                    line: record.line,
                    field: "Position",
                    message: "position \(row.position) is also on line \(earlier)"
                )
            }
            lineOfPosition[row.position] = record.line
            rows.append(row)
        }
        return rows
    }

    private static func columnIndex(_ header: CSVRecord, file: String) throws(ImportError) -> [String: Int] {
        let columns = try header.columnIndex(known: knownColumns, file: file, unknownNote: ". " + expectedColumnsText)
        var required = ["Position", "Name"]
        for (first, second) in [("NumRepetitions", "Interval"), ("FrequencyNumerator", "FrequencyDenominator")]
        where columns[first] != nil || columns[second] != nil {
            required += [first, second]
        }
        if columns["Target Type"] != nil || columns["Target Value"] != nil || columns["Type"] != nil {
            required += ["Type", "Target Type", "Target Value"]
        }
        for name in required where columns[name] == nil {
            throw ImportError(
                file: file,
                line: header.line,
                field: name,
                message: "missing column. " + expectedColumnsText
            )
        }
        return columns
    }

    private static func parseRow(
        _ record: CSVRecord,
        columns: [String: Int],
        file: String
    ) throws(ImportError) -> LoopHabitRow {
        func value(_ column: String) -> String? {
            columns[column].map { record.fields[$0] }
        }
        func failure(_ column: String, _ message: String) -> ImportError {
            ImportError(file: file, line: record.line, field: column, message: message)
        }

        let positionText = value("Position")!
        guard !positionText.isEmpty, positionText.allSatisfy(\.isPlainDigit), let position = Int(positionText),
            position >= 1
        else {
            throw failure("Position", "'\(positionText)' is not a position like 001")
        }

        let loopName = value("Name")!
        let cleanedName = LoopHabitName.cleaned(loopName)
        let name = cleanedName ?? loopName
        // Blank as `HabitName` sees it: every scalar white space (not every character: " \u{301}" is not blank).
        if name.unicodeScalars.allSatisfy({ $0.properties.isWhitespace }) {
            throw failure("Name", "the name is blank; a habit name needs a character other than spaces")
        }
        if TextLength.of(name) > maximumNameLength {
            throw failure(
                "Name",
                "the name has \(TextLength.of(name)) characters; Streakd takes 1 to \(maximumNameLength). "
                    + "Shorten it in Loop and export again"
            )
        }

        let kind = try parseKind(value, failure: failure)

        var frequency: LoopHabitRow.Frequency?
        for (first, second) in [("NumRepetitions", "Interval"), ("FrequencyNumerator", "FrequencyDenominator")] {
            guard let numeratorText = value(first), let denominatorText = value(second) else { continue }
            guard let numerator = positiveInteger(numeratorText) else {
                throw failure(first, "'\(numeratorText)' is not a whole number of 1 or more")
            }
            guard let denominator = positiveInteger(denominatorText) else {
                throw failure(second, "'\(denominatorText)' is not a whole number of 1 or more")
            }
            frequency = LoopHabitRow.Frequency(numerator: numerator, denominator: denominator)
        }

        var archived: Bool?
        if let text = value("Archived?") {
            switch text.lowercased() {
            case "true": archived = true
            case "false", "": archived = false
            default: throw failure("Archived?", "'\(text)' is neither true nor false")
            }
        }

        return LoopHabitRow(
            line: record.line,
            position: position,
            name: name,
            nameCleaned: cleanedName != nil,
            kind: kind,
            frequency: frequency,
            archived: archived
        )
    }

    private static func parseKind(
        _ value: (String) -> String?,
        failure: (String, String) -> ImportError
    ) throws(ImportError) -> LoopHabitRow.Kind {
        guard let type = value("Type") else { return .unknown }
        switch type {
        case "YES_NO", "":
            return .yesNo
        case "NUMERICAL":
            let targetType = value("Target Type") ?? ""
            guard targetType == "AT_LEAST" || targetType == "AT_MOST" else {
                throw failure("Target Type", "'\(targetType)' is neither AT_LEAST nor AT_MOST")
            }
            let targetText = value("Target Value") ?? ""
            guard let target = decimal(targetText), target >= 0 else {
                throw failure("Target Value", "'\(targetText)' is not a number of 0 or more, like 10.0")
            }
            return .measurable(atMost: targetType == "AT_MOST", target: target, unit: value("Unit") ?? "")
        default:
            throw failure("Type", "'\(type)' is neither YES_NO nor NUMERICAL")
        }
    }

    static func positiveInteger(_ text: String) -> Int? {
        guard !text.isEmpty, text.count <= 9, text.allSatisfy(\.isPlainDigit), let value = Int(text), value >= 1 else {
            return nil
        }
        return value
    }

    /// `10`, `10.0` or `10,5` (a decimal comma, from a locale's formatting).
    static func decimal(_ text: String) -> Double? {
        let normalized = text.replacingOccurrences(of: ",", with: ".")
        let parts = normalized.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty,
            parts.allSatisfy({ $0.allSatisfy(\.isPlainDigit) }), parts.count == 1 || !parts[1].isEmpty
        else { return nil }
        return Double(normalized)
    }
}

extension Character {
    /// 0 to 9 (not other scripts' digits).
    var isPlainDigit: Bool { isASCII && isNumber }
}
