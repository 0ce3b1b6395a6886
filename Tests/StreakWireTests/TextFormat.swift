import StreakCore
import StreakWire

/// Writes a message in protobuf text format by reflection, independently of protobuf-c, so that
/// `protoc --encode` (the reference C++ implementation) can turn it into bytes.
///
/// Property names map back to proto field names (`asOf` -> `as_of`); proto3 defaults (0, false, "", [])
/// are omitted; nil is absent; a `CivilDate` is a `Date` message; a `Weekday` is a `WEEKDAY_*` enum value; a
/// `WireEnum` is its number;
/// a oneof enum contributes its case as the field.
enum TextFormat {
    static func format(_ message: Any) -> String {
        var lines: [String] = []
        write(message, into: &lines)
        return lines.joined(separator: "\n") + "\n"
    }

    private static func write(_ message: Any, into lines: inout [String]) {
        for child in Mirror(reflecting: message).children {
            guard let label = child.label else { continue }
            writeField(snakeCase(label), child.value, into: &lines)
        }
    }

    private static func writeField(_ name: String, _ value: Any, into lines: inout [String]) {
        switch value {
        case let date as CivilDate:
            lines.append("\(name) { year: \(date.year) month: \(date.month) day: \(date.day) }")
        case let weekday as Weekday:
            lines.append("\(name): \(weekdayName(weekday))")
        case let string as String:
            if !string.isEmpty { lines.append("\(name): \(quoted(Array(string.utf8)))") }
        case let bytes as [UInt8]:
            if !bytes.isEmpty { lines.append("\(name): \(quoted(bytes))") }
        case let flag as Bool:
            if flag { lines.append("\(name): true") }
        case let number as any BinaryInteger:
            if "\(number)" != "0" { lines.append("\(name): \(number)") }
        case let value as any WireEnum:
            // An enum value by its number, which the text format accepts for any enum.
            if value.rawValue != 0 { lines.append("\(name): \(value.rawValue)") }
        case let message as any WireMessage:
            lines.append("\(name) {")
            write(message, into: &lines)
            lines.append("}")
        default:
            let mirror = Mirror(reflecting: value)
            switch mirror.displayStyle {
            case .optional:
                if let some = mirror.children.first { writeField(name, some.value, into: &lines) }
            case .collection:
                for element in mirror.children { writeRepeated(name, element.value, into: &lines) }
            case .enum:
                // A oneof: the case name is the field, the payload its value (written even when empty).
                if let some = mirror.children.first, let label = some.label {
                    writeRepeated(snakeCase(label), some.value, into: &lines)
                }
            default:
                fatalError("TextFormat cannot write \(type(of: value))")
            }
        }
    }

    /// A repeated element or oneof member: written even when it equals the default.
    private static func writeRepeated(_ name: String, _ value: Any, into lines: inout [String]) {
        switch value {
        case let string as String: lines.append("\(name): \(quoted(Array(string.utf8)))")
        case let bytes as [UInt8]: lines.append("\(name): \(quoted(bytes))")
        case let number as any BinaryInteger: lines.append("\(name): \(number)")
        case let flag as Bool: lines.append("\(name): \(flag)")
        default: writeField(name, value, into: &lines)
        }
    }

    static func weekdayName(_ weekday: Weekday) -> String {
        let names = ["SUNDAY", "MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY"]
        return "WEEKDAY_" + names[weekday.rawValue - 1]
    }

    /// A double-quoted string with every non-printable-ASCII byte as an octal escape.
    static func quoted(_ bytes: [UInt8]) -> String {
        var out = "\""
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): out += "\\\""
            case UInt8(ascii: "\\"): out += "\\\\"
            case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let octal = String(byte, radix: 8)
                out += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
            }
        }
        return out + "\""
    }

    static func snakeCase(_ name: String) -> String {
        var out = ""
        for character in name {
            if character.isUppercase {
                out += "_" + character.lowercased()
            } else {
                out.append(character)
            }
        }
        return out
    }
}
