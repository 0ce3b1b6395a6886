import StreakCLI
import Testing

@Suite("CSV per RFC 4180")
struct CSVReaderTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        var records: [CSVRecord]
        var testDescription: String { name }

        init(_ name: String, _ text: String, _ records: [(Int, [String])]) {
            self.init(name, Array(text.utf8), records)
        }

        init(_ name: String, _ bytes: [UInt8], _ records: [(Int, [String])]) {
            self.name = name
            self.bytes = bytes
            self.records = records.map { CSVRecord(line: $0.0, fields: $0.1) }
        }
    }

    static let cases: [Case] = [
        Case("plain fields, LF", "a,b,c\n1,2,3\n", [(1, ["a", "b", "c"]), (2, ["1", "2", "3"])]),
        Case("no final line break", "a,b\n1,2", [(1, ["a", "b"]), (2, ["1", "2"])]),
        Case("CRLF", "a,b\r\n1,2\r\n", [(1, ["a", "b"]), (2, ["1", "2"])]),
        Case("a lone CR ends a line", "a\r1\r", [(1, ["a"]), (2, ["1"])]),
        Case("empty fields", ",a,,\n", [(1, ["", "a", "", ""])]),
        Case("quoted commas", "\"Lire, vite\",x\n", [(1, ["Lire, vite", "x"])]),
        Case("doubled quotes", "\"\"\"ok\"\"\",\"a\"\"b\"\n", [(1, ["\"ok\"", "a\"b"])]),
        Case("an empty quoted field", "\"\",x\n", [(1, ["", "x"])]),
        Case(
            "a line break inside quotes counts lines",
            "a,\"one\ntwo\"\nb,c\n",
            [(1, ["a", "one\ntwo"]), (3, ["b", "c"])]
        ),
        Case(
            "CRLF inside quotes is kept and counted once",
            "\"x\r\ny\",z\r\nnext\r\n",
            [(1, ["x\r\ny", "z"]), (3, ["next"])]
        ),
        Case("blank lines are skipped, lines still counted", "a\n\n\r\nb\n", [(1, ["a"]), (4, ["b"])]),
        Case("UTF-8 letters", "Ünïcode,«vite» – ok\n", [(1, ["Ünïcode", "«vite» – ok"])]),
        Case(
            "a byte order mark is dropped",
            [0xEF, 0xBB, 0xBF] + Array("Date,Value\r\n".utf8),
            [(1, ["Date", "Value"])]
        ),
        Case("an empty file", "", []),
    ]

    @Test(arguments: cases)
    func reads(_ example: Case) throws {
        #expect(try CSVReader.records(example.bytes, file: "t.csv") == example.records)
    }

    struct Bad: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        var message: String
        var testDescription: String { name }

        init(_ name: String, _ text: String, _ message: String) {
            self.init(name, Array(text.utf8), message)
        }

        init(_ name: String, _ bytes: [UInt8], _ message: String) {
            self.name = name
            self.bytes = bytes
            self.message = message
        }
    }

    static let bad: [Bad] = [
        Bad(
            "a quoted field never closed",
            "a,b\n1,\"open\nstill open\n",
            "t.csv:2: column 2: a quoted field that starts here is never closed (the file may be truncated)"
        ),
        Bad(
            "text after a closing quote",
            "a\n\"x\"y,z\n",
            "t.csv:2: column 1: text after the closing quote of a quoted field (a quote inside it is written twice: \"\")"
        ),
        Bad(
            "a quote inside an unquoted field",
            "a,b\nx,5\"\n",
            "t.csv:2: column 2: a quote inside a field that does not start with one "
                + "(RFC 4180: quote the whole field and write the quote twice)"
        ),
        Bad(
            "Latin-1 bytes",
            Array("a\nb\n".utf8) + [0x4C, 0x69, 0x72, 0x65, 0xE9, 0x0A],
            "t.csv:3: is not UTF-8 text (bytes 0xE9); export it again from Loop, or save it as UTF-8"
        ),
    ]

    @Test(arguments: bad)
    func refuses(_ example: Bad) {
        #expect {
            try CSVReader.records(example.bytes, file: "t.csv")
        } throws: { error in
            "\(error)" == example.message
        }
    }
}
