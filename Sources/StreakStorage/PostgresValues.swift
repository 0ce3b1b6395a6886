internal import CPostgres
import Glibc

/// Values between Swift and libpq: statements' placeholders and parameters going out, result
/// fields coming back.
enum PostgresValues {
    /// `sql` with its `?` placeholders (outside string literals) numbered `$1`, `$2`, ...
    static func numberingPlaceholders(_ sql: String) -> String {
        var result = ""
        var number = 0
        var inLiteral = false
        for character in sql {
            if character == "'" { inLiteral.toggle() }
            if character == "?" && !inLiteral {
                number += 1
                result += "$\(number)"
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// Calls `body` with libpq's parameter arrays: integers and text as text, blobs as binary.
    /// - Throws: `.io` when a parameter's buffer cannot be allocated (a NULL would be sent as SQL NULL).
    static func withParameters<T>(
        _ arguments: [SQLValue],
        _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> T
    ) throws(StorageError) -> T {
        var buffers: [UnsafeMutablePointer<CChar>?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        defer { for buffer in buffers { free(buffer) } }
        for argument in arguments {
            switch argument {
            case .null:
                buffers.append(nil)
                lengths.append(0)
                formats.append(0)
            case .integer(let value):
                buffers.append(try allocated(strdup(String(value))))
                lengths.append(0)
                formats.append(0)
            case .text(let value):
                buffers.append(try allocated(strdup(value)))
                lengths.append(0)
                formats.append(0)
            case .blob(let bytes):
                // malloc, like strdup above: every buffer is released with free.
                let buffer = try allocated(malloc(max(bytes.count, 1))?.assumingMemoryBound(to: CChar.self))
                bytes.withUnsafeBytes { raw in
                    if let base = raw.baseAddress { memcpy(buffer, base, bytes.count) }
                }
                buffers.append(buffer)
                lengths.append(Int32(bytes.count))
                formats.append(1)
            }
        }
        let values = buffers.map { UnsafePointer($0) }
        return values.withUnsafeBufferPointer { values in
            lengths.withUnsafeBufferPointer { lengths in
                formats.withUnsafeBufferPointer { formats in
                    body(values.baseAddress, lengths.baseAddress, formats.baseAddress)
                }
            }
        }
    }

    /// Calls `body` with `strings` as a C array of C strings, ending in NULL.
    static func withCStrings<T>(
        _ strings: [String],
        _ body: (UnsafePointer<UnsafePointer<CChar>?>) throws(StorageError) -> T
    ) throws(StorageError) -> T {
        var copies: [UnsafeMutablePointer<CChar>?] = []
        defer { for copy in copies { free(copy) } }
        for string in strings { copies.append(try allocated(strdup(string))) }
        var pointers = copies.map { UnsafePointer($0) } + [nil]
        return try pointers.withUnsafeMutableBufferPointer { buffer throws(StorageError) in
            try body(UnsafePointer(buffer.baseAddress!))
        }
    }

    /// `buffer`, or `.io` "out of memory" when the allocation that made it failed.
    private static func allocated(
        _ buffer: UnsafeMutablePointer<CChar>?
    ) throws(StorageError) -> UnsafeMutablePointer<CChar> {
        guard let buffer else { throw StorageError(.io, "out of memory for a query parameter") }
        return buffer
    }

    private static let integerTypes: Set<UInt32> = [20, 21, 23, 26]  // int8, int2, int4, oid
    private static let byteaType: UInt32 = 17
    private static let boolType: UInt32 = 16

    /// The field at `row` and `column` of `result`, whose column has the type `type` (an OID).
    static func value(_ result: OpaquePointer?, _ row: Int32, _ column: Int32, type: UInt32) -> SQLValue {
        guard streak_PQgetisnull(result, row, column) == 0, let text = streak_PQgetvalue(result, row, column) else {
            return .null
        }
        let string = String(cString: text)
        if integerTypes.contains(type) { return Int64(string).map(SQLValue.integer) ?? .null }
        if type == boolType { return .integer(string == "t" ? 1 : 0) }
        if type == byteaType { return .blob(hexBytes(string)) }
        return .text(string)
    }

    /// The bytes of bytea's hex output (`\x0a1b...`).
    static func hexBytes(_ string: String) -> [UInt8] {
        let digits = Array(string.utf8.dropFirst(2))
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index + 1 < digits.count {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { break }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
