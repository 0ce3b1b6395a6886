/// A JSON value that remembers the line it starts on, so that an import can say where a bad
/// value is (`export.json:120: habits[3].completions[7]: ...`). RFC 8259, UTF-8; objects keep
/// their keys in order; numbers are kept as text.
public indirect enum LineJSON: Sendable {
    case null(line: Int)
    case bool(Bool, line: Int)
    case number(String, line: Int)
    case string(String, line: Int)
    case array([LineJSON], line: Int)
    case object([(key: String, value: LineJSON)], line: Int)

    /// The 1-based line the value starts on.
    public var line: Int {
        switch self {
        case .null(let line), .bool(_, let line), .number(_, let line), .string(_, let line), .array(_, let line),
            .object(_, let line):
            line
        }
    }

    /// The value of `key` in an object (nil when absent or not an object).
    public subscript(key: String) -> LineJSON? {
        guard case .object(let members, _) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// Parses a whole document.
    /// - Throws: `LineJSON.SyntaxError` with the line and what was expected.
    public static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> LineJSON {
        var parser = Parser(bytes: bytes)
        if parser.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw parser.error("unexpected text after the document") }
        return value
    }

    /// A syntax error: the line and what is wrong.
    public struct SyntaxError: Error, Sendable {
        /// The 1-based line.
        public var line: Int
        /// What is wrong.
        public var message: String
    }

    struct Parser {
        let bytes: [UInt8]
        var index = 0
        var line = 1

        init(bytes: [UInt8]) { self.bytes = bytes }

        func error(_ message: String) -> SyntaxError {
            SyntaxError(line: line, message: index >= bytes.count ? "the file ends early (truncated?)" : message)
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x0A: line += 1
                case 0x20, 0x09, 0x0D: break
                default: return
                }
                index += 1
            }
        }

        mutating func value(depth: Int) throws(SyntaxError) -> LineJSON {
            guard depth < 64 else { throw error("nested more than 64 deep") }
            skipWhitespace()
            guard index < bytes.count else { throw error("a value is missing") }
            let start = line
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var members: [(key: String, value: LineJSON)] = []
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(members, line: start)
                }
                while true {
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                        throw error("expected a key in quotes")
                    }
                    let key = try string()
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
                    index += 1
                    members.append((key, try value(depth: depth + 1)))
                    skipWhitespace()
                    guard index < bytes.count else { throw error("an object is not closed") }
                    if bytes[index] == UInt8(ascii: ",") {
                        index += 1
                        continue
                    }
                    guard bytes[index] == UInt8(ascii: "}") else { throw error("expected ',' or '}'") }
                    index += 1
                    return .object(members, line: start)
                }
            case UInt8(ascii: "["):
                index += 1
                var elements: [LineJSON] = []
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(elements, line: start)
                }
                while true {
                    elements.append(try value(depth: depth + 1))
                    skipWhitespace()
                    guard index < bytes.count else { throw error("an array is not closed") }
                    if bytes[index] == UInt8(ascii: ",") {
                        index += 1
                        continue
                    }
                    guard bytes[index] == UInt8(ascii: "]") else { throw error("expected ',' or ']'") }
                    index += 1
                    return .array(elements, line: start)
                }
            case UInt8(ascii: "\""):
                return .string(try string(), line: start)
            case UInt8(ascii: "t"):
                try literal("true")
                return .bool(true, line: start)
            case UInt8(ascii: "f"):
                try literal("false")
                return .bool(false, line: start)
            case UInt8(ascii: "n"):
                try literal("null")
                return .null(line: start)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let begin = index
                while index < bytes.count, "+-.eE0123456789".utf8.contains(bytes[index]) { index += 1 }
                let text = String(decoding: bytes[begin..<index], as: UTF8.self)
                guard Double(text) != nil else { throw error("'\(text)' is not a number") }
                return .number(text, line: start)
            default:
                throw error("unexpected character '\(String(decoding: [bytes[index]], as: UTF8.self))'")
            }
        }

        mutating func literal(_ word: String) throws(SyntaxError) {
            let expected = Array(word.utf8)
            guard index + expected.count <= bytes.count, Array(bytes[index..<(index + expected.count)]) == expected
            else {
                throw error("expected \(word)")
            }
            index += expected.count
        }

        mutating func string() throws(SyntaxError) -> String {
            index += 1
            var scalars = String.UnicodeScalarView()
            var run = index
            func flush(_ parser: Parser, into scalars: inout String.UnicodeScalarView) -> Bool {
                guard let text = String(validating: parser.bytes[run..<parser.index], as: UTF8.self) else {
                    return false
                }
                scalars.append(contentsOf: text.unicodeScalars)
                return true
            }
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    guard flush(self, into: &scalars) else { throw error("a string is not valid UTF-8") }
                    index += 1
                    return String(scalars)
                }
                if byte < 0x20 { throw error("a control character inside a string (a missing quote?)") }
                if byte == UInt8(ascii: "\\") {
                    guard flush(self, into: &scalars) else { throw error("a string is not valid UTF-8") }
                    index += 1
                    guard index < bytes.count else { break }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""): scalars.append("\"")
                    case UInt8(ascii: "\\"): scalars.append("\\")
                    case UInt8(ascii: "/"): scalars.append("/")
                    case UInt8(ascii: "b"): scalars.append("\u{08}")
                    case UInt8(ascii: "f"): scalars.append("\u{0C}")
                    case UInt8(ascii: "n"): scalars.append("\n")
                    case UInt8(ascii: "r"): scalars.append("\r")
                    case UInt8(ascii: "t"): scalars.append("\t")
                    case UInt8(ascii: "u"):
                        var code = try hex4()
                        if (0xD800...0xDBFF).contains(code) {
                            guard index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"),
                                bytes[index + 1] == UInt8(ascii: "u")
                            else { throw error("a lone surrogate in \\u escape") }
                            index += 2
                            let low = try hex4()
                            guard (0xDC00...0xDFFF).contains(low) else { throw error("a lone surrogate in \\u escape") }
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let scalar = Unicode.Scalar(code) else { throw error("an invalid \\u escape") }
                        scalars.append(scalar)
                    default:
                        throw error("an invalid escape in a string")
                    }
                    run = index
                    continue
                }
                index += 1
            }
            throw error("a string is not closed")
        }

        mutating func hex4() throws(SyntaxError) -> UInt32 {
            guard index + 4 <= bytes.count,
                let value = UInt32(String(decoding: bytes[index..<(index + 4)], as: UTF8.self), radix: 16)
            else { throw error("an invalid \\u escape") }
            index += 4
            return value
        }
    }
}
