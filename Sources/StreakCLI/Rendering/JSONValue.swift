/// A JSON value with object keys kept in the order they were given, so that the CLI's
/// `--json` output is stable byte for byte.
public indirect enum JSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer.
    case int(Int64)
    /// A string, escaped on output.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object whose members keep their order.
    case object([(String, JSONValue)])

    /// Equal when the serialized texts are equal (member order counts).
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.serialized() == rhs.serialized()
    }

    /// Hashes the serialized text.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(serialized())
    }

    /// The value as JSON text: objects and arrays over several lines, indented by two spaces.
    public func serialized(pretty: Bool = true) -> String {
        var output = ""
        write(into: &output, indent: pretty ? 0 : nil)
        return output
    }

    private func write(into output: inout String, indent: Int?) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .string(let value): JSONValue.writeString(value, into: &output)
        case .array(let values):
            writeContainer("[", "]", values.count, into: &output, indent: indent) { index, output, inner in
                values[index].write(into: &output, indent: inner)
            }
        case .object(let members):
            writeContainer("{", "}", members.count, into: &output, indent: indent) { index, output, inner in
                JSONValue.writeString(members[index].0, into: &output)
                output += inner == nil ? ":" : ": "
                members[index].1.write(into: &output, indent: inner)
            }
        }
    }

    private func writeContainer(
        _ open: String,
        _ close: String,
        _ count: Int,
        into output: inout String,
        indent: Int?,
        element: (Int, inout String, Int?) -> Void
    ) {
        output += open
        guard count > 0 else {
            output += close
            return
        }
        let inner = indent.map { $0 + 2 }
        for index in 0..<count {
            if index > 0 { output += "," }
            if let inner { output += "\n" + String(repeating: " ", count: inner) }
            element(index, &output, inner)
        }
        if let indent { output += "\n" + String(repeating: " ", count: indent) }
        output += close
    }

    private static func writeString(_ value: String, into output: inout String) {
        output += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
