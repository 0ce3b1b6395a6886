import StreakCore

/// The values of Loop's entries (Entry.kt; Checkmark.java in the Java versions).
enum LoopValue {
    /// The user checked the day (Checkmark.CHECKED_EXPLICITLY in Java).
    static let yesManual = 2
    /// Loop filled the day in from the habit's frequency (CHECKED_IMPLICITLY in Java).
    static let yesAuto = 1
    /// Not done (UNCHECKED in Java).
    static let no = 0
    /// No answer (written only when the day has a note).
    static let unknown = -1
    /// Skipped: 3 in Entry.kt, -3 in one of its revisions (also read as a skip); the Java versions have none.
    static let skip = 3
    static let earlySkip = -3

    /// The names recent versions write for them in Checkmarks.csv.
    static let names: [String: Int] = [
        "YES_MANUAL": yesManual, "YES_AUTO": yesAuto, "NO": no, "UNKNOWN": unknown, "SKIP": skip,
    ]
}

/// One row of a habit's Checkmarks.csv, checked.
struct LoopEntryRow: Hashable, Sendable {
    var line: Int
    var date: CivilDate
    /// The value as Loop stores it (a name read back to its number; thousandths for a measurable habit).
    var value: Int
    /// Whether the row has a note (the Notes column of recent versions).
    var hasNote: Bool
}

/// A habit's Checkmarks.csv (in its "001 Name" folder): with the header Date,Value,Notes (recent
/// versions) or without a header, rows of date,value (older ones).
enum LoopCheckmarksFile {
    static let expectedColumnsText =
        "expected the header Date,Value,Notes (recent Loop versions) or, without a header, rows of "
        + "date,value (older ones)"

    /// Where a file's columns are: the older files' date,value rows, or what a header says.
    struct Columns {
        var date = 0
        var value = 1
        var notes: Int?
        var width = 2
    }

    /// Reads one Checkmarks.csv; `file` names it in errors.
    static func parse(_ bytes: [UInt8], file: String) throws(ImportError) -> [LoopEntryRow] {
        let records = try CSVReader.records(bytes, file: file)
        guard let first = records.first else { return [] }
        var columns = Columns()
        var body = records[...]
        if !looksLikeDate(first.fields[0]) {
            columns = try self.columns(ofHeader: first, file: file)
            body = records.dropFirst()
        }
        var rows: [LoopEntryRow] = []
        var lineOfDate: [CivilDate: Int] = [:]
        for record in body {
            let row = try self.row(record, columns: columns, file: file)
            if let earlier = lineOfDate[row.date] {
                throw ImportError(
                    file: file,
                    line: record.line,
                    field: "Date",
                    message: "\(row.date) is also on line \(earlier)"
                )
            }
            lineOfDate[row.date] = record.line
            rows.append(row)
        }
        return rows
    }

    /// The columns a header names: Date and Value, perhaps Notes, in any order, each once.
    private static func columns(ofHeader header: CSVRecord, file: String) throws(ImportError) -> Columns {
        let columns = try header.columnIndex(
            known: ["Date", "Value", "Notes"],
            file: file,
            unknownNote: "; " + expectedColumnsText
        )
        guard let date = columns["Date"], let value = columns["Value"] else {
            throw ImportError(
                file: file,
                line: header.line,
                field: columns["Date"] == nil ? "Date" : "Value",
                message: "missing column; " + expectedColumnsText
            )
        }
        return Columns(date: date, value: value, notes: columns["Notes"], width: header.fields.count)
    }

    /// One row, its date and value checked.
    private static func row(_ record: CSVRecord, columns: Columns, file: String) throws(ImportError) -> LoopEntryRow {
        guard record.fields.count == columns.width else {
            throw ImportError(
                file: file,
                line: record.line,
                message: "has \(record.fields.count) fields where \(columns.width) are expected; "
                    + expectedColumnsText
            )
        }
        let date: CivilDate
        do {
            date = try CivilDate(parsing: record.fields[columns.date])
        } catch {
            throw ImportError(file: file, line: record.line, field: "Date", message: error.message)
        }
        let valueText = record.fields[columns.value]
        guard let value = parseValue(valueText) else {
            throw ImportError(
                file: file,
                line: record.line,
                field: "Value",
                message: "'\(valueText)' is not a Loop entry value: YES_MANUAL, YES_AUTO, NO, SKIP, UNKNOWN "
                    + "or a whole number"
            )
        }
        let hasNote = columns.notes.map { !record.fields[$0].isEmpty } ?? false
        return LoopEntryRow(line: record.line, date: date, value: value, hasNote: hasNote)
    }

    /// `NNNN-NN-NN`: a row (whose date may still not exist), not a header.
    static func looksLikeDate(_ text: String) -> Bool {
        let characters = Array(text)
        guard characters.count == 10 else { return false }
        return characters.enumerated().allSatisfy { index, character in
            index == 4 || index == 7 ? character == "-" : character.isPlainDigit
        }
    }

    /// A name, or a whole number in 32 bits (Loop's values are Java ints).
    static func parseValue(_ text: String) -> Int? {
        if let named = LoopValue.names[text] { return named }
        let digits = text.hasPrefix("-") ? text.dropFirst() : text[...]
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy(\.isPlainDigit), let value = Int(text),
            Int(Int32.min)...Int(Int32.max) ~= value
        else { return nil }
        return value
    }
}
