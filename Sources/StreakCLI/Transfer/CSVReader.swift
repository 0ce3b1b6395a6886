/// One record of a CSV file: its fields and the 1-based line it starts on.
public struct CSVRecord: Hashable, Sendable {
    /// The line the record starts on (a quoted field may run over several).
    public var line: Int
    /// The fields, unquoted.
    public var fields: [String]

    /// Creates a record.
    public init(line: Int, fields: [String]) {
        self.line = line
        self.fields = fields
    }
}

extension CSVRecord {
    /// This record read as a header: the index of each column by name. Every name must be one of
    /// `known`, and appear once; an `ImportError` for `file` names the first that does not,
    /// `unknownNote` follows "unknown column (column N)" in its message.
    func columnIndex(known: [String], file: String, unknownNote: String) throws(ImportError) -> [String: Int] {
        var columns: [String: Int] = [:]
        for (index, name) in fields.enumerated() {
            guard known.contains(name) else {
                throw ImportError(
                    file: file,
                    line: line,
                    field: name,
                    message: "unknown column (column \(index + 1))" + unknownNote
                )
            }
            guard columns[name] == nil else {
                throw ImportError(file: file, line: line, field: name, message: "the column appears twice")
            }
            columns[name] = index
        }
        return columns
    }
}

/// Reads CSV as RFC 4180 has it: fields separated by commas, records by CRLF (LF and a lone CR
/// are accepted too), a field in double quotes may hold commas, line breaks and doubled quotes.
/// The text is UTF-8, with or without a byte order mark. Blank lines are skipped.
///
/// Stops at the first problem with an `ImportError` naming the file, the line and the column: a
/// byte that is not UTF-8, a quote inside an unquoted field, text after a closing quote, a quoted
/// field that is never closed.
public enum CSVReader {
    /// Reads the records of `bytes`; `file` names the file in errors.
    public static func records(_ bytes: [UInt8], file: String) throws(ImportError) -> [CSVRecord] {
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            start = 3
        }
        try validateUTF8(bytes, from: start, file: file)
        var parser = Parser(bytes: bytes, position: start, file: file)
        return try parser.parse()
    }

    /// Reads the records of `text`; `file` names the file in errors.
    public static func records(_ text: String, file: String) throws(ImportError) -> [CSVRecord] {
        try records(Array(text.utf8), file: file)
    }

    /// Fails on the first byte sequence that is not UTF-8, naming its line.
    static func validateUTF8(_ bytes: [UInt8], from start: Int, file: String) throws(ImportError) {
        var iterator = bytes[start...].makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = start
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar):
                offset += scalar.count
            case .emptyInput:
                return
            case .error(let length):
                let line = lineNumber(in: bytes, before: offset, from: start)
                let shown = bytes[offset..<offset + length].map { hex($0) }.joined(separator: " ")
                throw ImportError(
                    file: file,
                    line: line,
                    message: "is not UTF-8 text (bytes \(shown)); export it again from Loop, or save it as UTF-8"
                )
            }
        }
    }

    /// The 1-based line of the byte at `offset` (CRLF, LF and a lone CR each end a line).
    static func lineNumber(in bytes: [UInt8], before offset: Int, from start: Int) -> Int {
        var line = 1
        var index = start
        while index < offset {
            if bytes[index] == lf {
                line += 1
            } else if bytes[index] == cr {
                line += 1
                if index + 1 < offset, bytes[index + 1] == lf { index += 1 }
            }
            index += 1
        }
        return line
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "0x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
    }

    static let comma = UInt8(ascii: ",")
    static let quote = UInt8(ascii: "\"")
    static let cr = UInt8(ascii: "\r")
    static let lf = UInt8(ascii: "\n")

    /// The state of one pass over the bytes.
    private struct Parser {
        let bytes: [UInt8]
        var position: Int
        let file: String
        var line = 1

        init(bytes: [UInt8], position: Int, file: String) {
            self.bytes = bytes
            self.position = position
            self.file = file
        }

        mutating func parse() throws(ImportError) -> [CSVRecord] {
            var records: [CSVRecord] = []
            while position < bytes.count {
                if atLineBreak() {
                    // A blank line: no record.
                    consumeLineBreak()
                    continue
                }
                let recordLine = line
                var fields: [String] = []
                while true {
                    fields.append(try field(column: fields.count + 1))
                    if position < bytes.count, bytes[position] == CSVReader.comma {
                        position += 1
                        continue
                    }
                    if position < bytes.count { consumeLineBreak() }
                    break
                }
                records.append(CSVRecord(line: recordLine, fields: fields))
            }
            return records
        }

        func atLineBreak() -> Bool {
            bytes[position] == CSVReader.lf || bytes[position] == CSVReader.cr
        }

        mutating func consumeLineBreak() {
            if bytes[position] == CSVReader.cr, position + 1 < bytes.count, bytes[position + 1] == CSVReader.lf {
                position += 1
            }
            position += 1
            line += 1
        }

        /// One field, leaving `position` on the comma, line break or end after it.
        mutating func field(column: Int) throws(ImportError) -> String {
            guard position < bytes.count, bytes[position] == CSVReader.quote else {
                return try unquoted(column: column)
            }
            let startLine = line
            position += 1
            var value: [UInt8] = []
            while true {
                guard position < bytes.count else {
                    throw ImportError(
                        file: file,
                        line: startLine,
                        field: "column \(column)",
                        message: "a quoted field that starts here is never closed (the file may be truncated)"
                    )
                }
                let byte = bytes[position]
                if byte == CSVReader.quote {
                    if position + 1 < bytes.count, bytes[position + 1] == CSVReader.quote {
                        value.append(CSVReader.quote)
                        position += 2
                        continue
                    }
                    position += 1
                    break
                }
                // A line break inside the quotes is part of the value; the LF of a CRLF counts it.
                if byte == CSVReader.lf || (byte == CSVReader.cr && !nextIs(CSVReader.lf)) {
                    line += 1
                }
                value.append(byte)
                position += 1
            }
            if position < bytes.count, bytes[position] != CSVReader.comma, !atLineBreak() {
                throw ImportError(
                    file: file,
                    line: line,
                    field: "column \(column)",
                    message: "text after the closing quote of a quoted field (a quote inside it is written twice: \"\")"
                )
            }
            return String(decoding: value, as: UTF8.self)
        }

        func nextIs(_ byte: UInt8) -> Bool {
            position + 1 < bytes.count && bytes[position + 1] == byte
        }

        mutating func unquoted(column: Int) throws(ImportError) -> String {
            let start = position
            while position < bytes.count {
                let byte = bytes[position]
                if byte == CSVReader.comma || byte == CSVReader.lf || byte == CSVReader.cr { break }
                if byte == CSVReader.quote {
                    throw ImportError(
                        file: file,
                        line: line,
                        field: "column \(column)",
                        message: "a quote inside a field that does not start with one "
                            + "(RFC 4180: quote the whole field and write the quote twice)"
                    )
                }
                position += 1
            }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }
    }
}
