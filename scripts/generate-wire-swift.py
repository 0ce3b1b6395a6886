#!/usr/bin/env python3
"""Generates StreakWire's Swift message types from proto/streak/v1/*.proto.

One file per message, `Wire<Message>.swift`: a public value type with one stored property per
field (lowerCamelCase names, `Date` -> `CivilDate?`, `Weekday` -> `Weekday?`,
other messages optional, repeated fields arrays, oneofs `Wire<Message>.<Oneof>` enums, an enum
declared in a message `Wire<Message>.<Enum>`, an open struct over its number), and its
bridge to the protoc-c struct (`lower(into:)` for encoding, `init(lifting:)` for decoding).
Plus `WireMethod.swift` with one case per rpc of the service.

The parser understands the subset of proto3 that proto/ uses: messages (no nesting), one
top-level enum (`Weekday`), enums declared in a message (used by its singular fields), oneofs,
`repeated`, and the service. Anything else is an error, so that a
schema change that needs generator work fails loudly instead of generating wrong code.

Usage: generate-wire-swift.py --proto DIR --out DIR
"""

import argparse
import os
import re
import sys

SCALARS = {
    "int32": ("Int32", "0"),
    "int64": ("Int64", "0"),
    "uint32": ("UInt32", "0"),
    "uint64": ("UInt64", "0"),
}
MAX_LINE = 120


class Field:
    def __init__(self, proto_type, name, number, repeated, doc, oneof=None):
        self.proto_type = proto_type
        self.name = name
        self.number = number
        self.repeated = repeated
        self.doc = doc
        self.oneof = oneof
        self.nested_enum = False  # the type is an enum declared in the field's message


class Message:
    def __init__(self, name, doc, source):
        self.name = name
        self.doc = doc
        self.source = source
        self.fields = []
        self.oneofs = []  # (name, doc, [Field])
        self.enums = []  # (name, doc, [(value name, number, doc)]): enums declared in the message


class Rpc:
    def __init__(self, name, request, response, streaming, doc):
        self.name = name
        self.request = request
        self.response = response
        self.streaming = streaming
        self.doc = doc


def statements(text):
    """Yields (code, comments) where comments are the comment lines before the statement
    plus the trailing comment of its line."""
    pending = []
    for raw in text.splitlines():
        code, _, comment = raw.partition("//")
        code = code.strip()
        comment = comment.strip()
        if not code:
            if comment:
                pending.append(comment)
            else:
                pending = []
            continue
        pieces = [p.strip() for p in re.findall(r"[^{};]*[{};]", code)]
        rest = re.sub(r"[^{};]*[{};]", "", code).strip()
        if rest:
            sys.exit(f"cannot parse proto line: {raw!r}")
        for index, piece in enumerate(pieces):
            docs = list(pending)
            pending = []
            if index == len(pieces) - 1 and comment:
                docs.append(comment)
            yield piece, docs


def parse(path, messages, enums, rpcs):
    source = os.path.basename(path)
    stack = []
    with open(path) as handle:
        text = handle.read()
    for code, docs in statements(text):
        if m := re.fullmatch(r"message\s+(\w+)\s*\{", code):
            if stack:
                sys.exit(f"nested message {m[1]} is not supported by the generator")
            message = Message(m[1], docs, source)
            messages.append(message)
            stack.append(("message", message))
        elif m := re.fullmatch(r"oneof\s+(\w+)\s*\{", code):
            oneof = (m[1], docs, [])
            stack[-1][1].oneofs.append(oneof)
            stack.append(("oneof", oneof))
        elif m := re.fullmatch(r"enum\s+(\w+)\s*\{", code):
            if stack and stack[-1][0] == "message":
                values = []
                stack[-1][1].enums.append((m[1], docs, values))
            elif stack:
                sys.exit(f"enum {m[1]} inside a {stack[-1][0]} is not supported by the generator")
            else:
                values = enums[m[1]] = []
            stack.append(("enum", values))
        elif m := re.fullmatch(r"service\s+(\w+)\s*\{", code):
            stack.append(("service", m[1]))
        elif code == "}":
            stack.pop()
        elif m := re.fullmatch(r"rpc\s+(\w+)\s*\(\s*(\w+)\s*\)\s*returns\s*\(\s*(stream\s+)?(\w+)\s*\)\s*;", code):
            rpcs.append(Rpc(m[1], m[2], m[4], bool(m[3]), docs))
        elif m := re.fullmatch(r"(repeated\s+)?(\w+)\s+(\w+)\s*=\s*(\d+)\s*;", code):
            kind, owner = stack[-1]
            if kind == "message":
                owner.fields.append(Field(m[2], m[3], int(m[4]), bool(m[1]), docs))
            elif kind == "oneof":
                if m[1]:
                    sys.exit("repeated field in a oneof")
                owner[2].append(Field(m[2], m[3], int(m[4]), False, docs, oneof=owner[0]))
            else:
                sys.exit(f"field outside a message: {code}")
        elif m := re.fullmatch(r"(\w+)\s*=\s*(-?\d+)\s*;", code):
            stack[-1][1].append((m[1], int(m[2]), docs))
        elif re.fullmatch(r"(syntax|package|import|option)\b.*;", code):
            pass
        else:
            sys.exit(f"cannot parse proto statement: {code!r}")


def snake(name):
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


def camel(name):
    parts = name.split("_")
    return parts[0] + "".join(p[:1].upper() + p[1:] for p in parts[1:])


def c_type(message):
    return f"Streak__V1__{message}"


def c_func(message):
    return f"streak__v1__{snake(message)}"


def kind_of(field, message_names):
    t = field.proto_type
    if field.nested_enum:
        return "enum"
    if t in SCALARS:
        return "scalar"
    if t in ("bool", "string", "bytes"):
        return t
    if t == "Date":
        return "date"
    if t == "Weekday":
        return "weekday"
    if t in message_names:
        return "message"
    sys.exit(f"unsupported field type {t}")


def swift_type(field, message_names):
    kind = kind_of(field, message_names)
    base = {
        "scalar": lambda: SCALARS[field.proto_type][0],
        "bool": lambda: "Bool",
        "string": lambda: "String",
        "bytes": lambda: "[UInt8]",
        "date": lambda: "CivilDate",
        "weekday": lambda: "Weekday",
        "message": lambda: f"Wire{field.proto_type}",
        "enum": lambda: field.proto_type,
    }[kind]()
    if kind == "enum":
        if field.repeated or field.oneof:
            sys.exit(f"a repeated or oneof enum field ({field.name}) is not supported by the generator")
        return base, f"{base}(rawValue: 0)"
    if field.repeated:
        if kind in ("bytes", "bool"):
            sys.exit(f"repeated {field.proto_type} is not supported by the generator")
        return f"[{base}]", "[]"
    if kind in ("date", "weekday", "message"):
        return f"{base}?", "nil"
    default = {"scalar": "0", "bool": "false", "string": '""', "bytes": "[]"}[kind]
    return base, default


def doc_lines(docs, indent, fallback):
    text = " ".join(d.strip() for d in docs).strip() or fallback
    text = text[:1].upper() + text[1:]
    if not text.endswith((".", ")", ":")):
        text += "."
    words = text.split()
    lines, line = [], ""
    width = MAX_LINE - len(indent) - 4
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return [f"{indent}/// {l}" for l in lines]


def wrap_call(prefix, args, suffix, indent):
    one = f"{indent}{prefix}{', '.join(args)}{suffix}"
    if len(one) <= MAX_LINE:
        return [one]
    out = [f"{indent}{prefix}"]
    out += [f"{indent}    {a}," for a in args[:-1]]
    out.append(f"{indent}    {args[-1]}")
    out.append(f"{indent}{suffix.strip()}" if suffix.strip() else indent)
    return out


def lower_field(field, message_names, swift_name, target):
    kind = kind_of(field, message_names)
    n = field.name
    if field.repeated:
        helper = {
            "scalar": "scalars", "string": "strings", "date": "dates", "weekday": "weekdays", "message": "messages"
        }[kind]
        return [f"(c.pointee.n_{n}, c.pointee.{n}) = arena.{helper}({swift_name})"]
    return {
        "scalar": [f"c.pointee.{n} = {swift_name}"],
        "bool": [f"c.pointee.{n} = {swift_name} ? 1 : 0"],
        "string": [f"c.pointee.{n} = arena.string({swift_name})"],
        "bytes": [f"c.pointee.{n} = arena.bytes({swift_name})"],
        "date": [f"c.pointee.{n} = arena.date({swift_name})"],
        "weekday": [f"c.pointee.{n} = WireLower.weekday({swift_name})"],
        "message": [f"c.pointee.{n} = arena.message({swift_name})"],
        "enum": [f"c.pointee.{n} = .init(rawValue: .init(truncatingIfNeeded: {swift_name}.rawValue))"],
    }[kind]


def lift_field(field, message_names):
    kind = kind_of(field, message_names)
    n = field.name
    if field.repeated:
        if kind == "scalar":
            return f"WireLift.scalars(c.pointee.n_{n}, c.pointee.{n})"
        if kind == "message":
            return f"try WireLift.messages(c.pointee.n_{n}, c.pointee.{n}, as: Wire{field.proto_type}.self)"
        helper = {"string": "strings", "date": "dates", "weekday": "weekdays"}[kind]
        return f'try WireLift.{helper}(c.pointee.n_{n}, c.pointee.{n}, field: "{n}")'
    return {
        "scalar": f"c.pointee.{n}",
        "bool": f"c.pointee.{n} != 0",
        "string": f'try WireLift.string(c.pointee.{n}, field: "{n}")',
        "bytes": f"WireLift.bytes(c.pointee.{n})",
        "date": f'try WireLift.date(c.pointee.{n}, field: "{n}")',
        "weekday": f'try WireLift.weekday(c.pointee.{n}, field: "{n}")',
        "message": f"try WireLift.message(c.pointee.{n}, as: Wire{field.proto_type}.self)",
        "enum": f"{field.proto_type}(rawValue: Int32(truncatingIfNeeded: c.pointee.{n}.rawValue))",
    }[kind]


def write_field(field, message_names):
    """The statements that prepend one field in `write(to:)` (reverse writer)."""
    kind = kind_of(field, message_names)
    n, num = field.name, field.number
    v = f"m.pointee.{camel(field.name)}"
    if field.oneof:
        case = f"if case .{camel(field.name)}(let value)? = m.pointee.{camel(field.oneof)}"
        call = {
            "scalar": f"writer.{field.proto_type}({num}, value)",
            "bool": f"writer.bool({num}, value)",
            "string": f"writer.string({num}, value)",
            "bytes": f"writer.bytes({num}, value)",
            "date": f"writer.date({num}, value)",
            "weekday": f"writer.int32({num}, Int32(value.rawValue))",
            "message": f"writer.message({num}, value)",
        }[kind]
        return [f"{case} {{", f"    {call}", "}"]
    if field.repeated:
        if kind == "scalar":
            if field.proto_type != "int64":
                sys.exit(f"repeated {field.proto_type} is not supported by the generator")
            return [f"if !{v}.isEmpty {{", f"    writer.packedInt64({num}, {v})", "}"]
        if kind == "message":
            return [f"if !{v}.isEmpty {{", f"    writer.messages({num}, {v})", "}"]
        if kind == "weekday":
            return [f"if !{v}.isEmpty {{", f"    writer.packedWeekdays({num}, {v})", "}"]
        call = {"string": "string", "date": "date"}[kind]
        return [f"for value in {v}.reversed() {{", f"    writer.{call}({num}, value)", "}"]
    return {
        "scalar": [f"if {v} != 0 {{", f"    writer.{field.proto_type}({num}, {v})", "}"],
        "bool": [f"if {v} {{", f"    writer.bool({num}, true)", "}"],
        "string": [f"if !{v}.isEmpty {{", f"    writer.string({num}, {v})", "}"],
        "bytes": [f"if !{v}.isEmpty {{", f"    writer.bytes({num}, {v})", "}"],
        "date": [f"if let value = {v} {{", f"    writer.date({num}, value)", "}"],
        "weekday": [f"if let value = {v} {{", f"    writer.int32({num}, Int32(value.rawValue))", "}"],
        "message": [f"if let value = {v} {{", f"    writer.message({num}, value)", "}"],
        "enum": [f"if {v}.rawValue != 0 {{", f"    writer.int32({num}, {v}.rawValue)", "}"],
    }[kind]


def generate_message(message, message_names):
    name = f"Wire{message.name}"
    ct = c_type(message.name)
    cf = c_func(message.name)
    out = [
        f"// Generated by scripts/generate-wire-swift.py from proto/streak/v1/{message.source}. Do not edit.",
        "",
        "internal import CStreakProto",
    ]
    all_fields = message.fields + [f for _, _, fs in message.oneofs for f in fs]
    if any(kind_of(f, message_names) in ("date", "weekday") for f in all_fields):
        out.append("public import StreakCore")
    out.append("")
    if message.doc:
        out += doc_lines(message.doc, "", "")
        out.append("///")
    out.append(f"/// Protobuf message `streak.v1.{message.name}`.")
    out.append(f"public struct {name}: WireMessage {{")
    for enum_name, enum_doc, values in message.enums:
        out += doc_lines(enum_doc, "    ", f"The `{enum_name}` enum")
        out.append("    ///")
        out.append("    /// An open set: a number this version does not name is kept as it came.")
        out.append(f"    public struct {enum_name}: WireEnum {{")
        out.append("        /// The number on the wire.")
        out.append("        public var rawValue: Int32")
        out.append("")
        out.append("        /// The value of a number, named here or not.")
        out.append("        public init(rawValue: Int32) {")
        out.append("            self.rawValue = rawValue")
        out.append("        }")
        for value_name, number, value_doc in values:
            out.append("")
            out += doc_lines([f"`{value_name}`:"] + value_doc, "        ", "")
            out.append(f"        public static let {camel(value_name.lower())} = {enum_name}(rawValue: {number})")
        out.append("    }")
        out.append("")
    params = []
    for field in message.fields:
        st, default = swift_type(field, message_names)
        out += doc_lines(field.doc, "    ", f"The `{field.name}` field")
        if default == "nil":
            out.append(f"    public var {camel(field.name)}: {st}")
        else:
            out.append(f"    public var {camel(field.name)}: {st} = {default}")
        params.append(f"{camel(field.name)}: {st} = {default}")
    for oneof_name, oneof_doc, fields in message.oneofs:
        enum_name = oneof_name[:1].upper() + camel(oneof_name)[1:]
        if message.fields:
            out.append("")
        out += doc_lines(oneof_doc, "    ", f"The `{oneof_name}` oneof: at most one of its fields is set")
        out.append(f"    public enum {enum_name}: Hashable, Sendable {{")
        for field in fields:
            st, _ = swift_type(field, message_names)
            out += doc_lines(field.doc, "        ", f"The `{field.name}` field")
            out.append(f"        case {camel(field.name)}({st.rstrip('?')})")
        out.append("    }")
        out.append("")
        out += doc_lines([], "    ", f"Which field of the `{oneof_name}` oneof is set; nil when none is")
        out.append(f"    public var {camel(oneof_name)}: {enum_name}?")
        params.append(f"{camel(oneof_name)}: {enum_name}? = nil")
    out.append("")
    out.append("    /// Creates a message with every field at its default: absent, zero or empty.")
    out.append("    public init() {}")
    if params:
        out.append("")
        out.append("    /// Creates a message from its fields; those not given keep their defaults.")
        out += wrap_call("public init(", params, ") {", "    ")
        for field in message.fields:
            out.append(f"        self.{camel(field.name)} = {camel(field.name)}")
        for oneof_name, _, _ in message.oneofs:
            out.append(f"        self.{camel(oneof_name)} = {camel(oneof_name)}")
        out.append("    }")
    out.append("}")
    out.append("")
    out.append(f"extension {name}: CBridgedMessage {{")
    out.append(f"    typealias CMessage = {ct}")
    out.append("")
    out.append("    /// Decodes a message; see `WireMessage`.")
    out.append("    public init(serializedBytes bytes: [UInt8], limits: DecodingLimits) throws(WireError) {")
    out.append("        self = try WireCodec.decode(bytes, limits: limits)")
    out.append("    }")
    out.append("")
    out.append("    /// Decodes a message from raw memory.")
    out.append(
        "    public init(serializedBytes bytes: UnsafeRawBufferPointer, limits: DecodingLimits) throws(WireError) {"
    )
    out.append("        self = try WireCodec.decode(bytes, limits: limits)")
    out.append("    }")
    out.append("")
    out.append("    /// The protobuf encoding of the message.")
    out.append("    public func serializedBytes() -> [UInt8] {")
    out.append("        WireCodec.encode(self)")
    out.append("    }")
    out.append("")
    out.append("    /// Appends the protobuf encoding of the message to `buffer`.")
    out.append("    public func serialize(appendingTo buffer: inout [UInt8]) {")
    out.append("        WireCodec.encode(self, appendingTo: &buffer)")
    out.append("    }")
    out.append("")
    out.append("    static func unpack(")
    out.append("        _ allocator: UnsafeMutablePointer<ProtobufCAllocator>,")
    out.append("        _ count: Int,")
    out.append("        _ data: UnsafePointer<UInt8>")
    out.append(f"    ) -> UnsafeMutablePointer<{ct}>? {{")
    out.append(f"        {cf}__unpack(allocator, count, data)")
    out.append("    }")
    out.append("")
    out.append(f"    func lower(into arena: borrowing WireArena) -> UnsafeMutablePointer<{ct}> {{")
    out.append(f"        let c = arena.allocate({ct}.self)")
    out.append(f"        {cf}__init(c)")
    for field in message.fields:
        out += ["        " + l for l in lower_field(field, message_names, camel(field.name), "c")]
    for oneof_name, _, fields in message.oneofs:
        enum_const = f"STREAK__V1__{snake(message.name).upper()}__{oneof_name.upper()}"
        out.append(f"        switch {camel(oneof_name)} {{")
        for field in fields:
            kind = kind_of(field, message_names)
            value = {
                "scalar": "value",
                "bool": "value ? 1 : 0",
                "string": "arena.string(value, keepEmpty: true)",
                "bytes": "arena.bytes(value)",
                "date": "arena.date(value)",
                "weekday": "WireLower.weekday(value)",
                "message": "arena.message(value)",
            }[kind]
            out.append(f"        case .{camel(field.name)}(let value):")
            out.append(f"            c.pointee.{oneof_name}_case = {enum_const}_{field.name.upper()}")
            out.append(f"            c.pointee.{field.name} = {value}")
        out.append("        case nil:")
        out.append("            break")
        out.append("        }")
    out.append("        return c")
    out.append("    }")
    out.append("")
    body_lines = []
    for field in message.fields:
        line = f"        {camel(field.name)} = {lift_field(field, message_names)}"
        if len(line) > MAX_LINE:
            head, _, rest = line.partition("(")
            body_lines.append(f"{head}(")
            body_lines.append(f"            {rest}")
        else:
            body_lines.append(line)
    for oneof_name, _, fields in message.oneofs:
        enum_const = f"STREAK__V1__{snake(message.name).upper()}__{oneof_name.upper()}"
        body_lines.append(f"        switch c.pointee.{oneof_name}_case {{")
        for field in fields:
            kind = kind_of(field, message_names)
            body_lines.append(f"        case {enum_const}_{field.name.upper()}:")
            if kind in ("weekday", "date", "message"):
                body_lines.append(f"            if let value = {lift_field(field, message_names)} {{")
                body_lines.append(f"                {camel(oneof_name)} = .{camel(field.name)}(value)")
                body_lines.append("            }")
            else:
                value = lift_field(field, message_names)
                body_lines.append(f"            {camel(oneof_name)} = .{camel(field.name)}({value})")
        body_lines.append("        default:")
        body_lines.append(f"            {camel(oneof_name)} = nil")
        body_lines.append("        }")
    if body_lines:
        throws = any("try " in l for l in body_lines)
        out.append(f"    init(lifting c: UnsafePointer<{ct}>){' throws(WireError)' if throws else ''} {{")
        out.append("        self.init()")
        out += body_lines
    else:
        out.append(f"    init(lifting _: UnsafePointer<{ct}>) {{")
        out.append("        self.init()")
    out.append("    }")
    out.append("}")
    return "\n".join(out) + "\n"


def generate_methods(rpcs):
    out = [
        "// Generated by scripts/generate-wire-swift.py from proto/streak/v1/service.proto. Do not edit.",
        "",
        "/// The methods of the `streak.v1.Streaks` service; the raw value is the method path of a REQUEST frame.",
        "public enum WireMethod: String, CaseIterable, Sendable {",
    ]
    for rpc in rpcs:
        arrow = "stream " if rpc.streaming else ""
        out.append(f"    /// `{rpc.name}({rpc.request}) returns ({arrow}{rpc.response})`.")
        out.append(f'    case {camel(snake(rpc.name))} = "/streak.v1.Streaks/{rpc.name}"')
    out.append("")
    out.append("    /// Whether the method answers with a stream (STREAM_MESSAGE frames, then END_STREAM).")
    out.append("    public var isServerStreaming: Bool {")
    out.append("        switch self {")
    streaming = [r for r in rpcs if r.streaming]
    if streaming:
        out.append("        case " + ", ".join(f".{camel(snake(r.name))}" for r in streaming) + ": true")
    out.append("        default: false")
    out.append("        }")
    out.append("    }")
    out.append("")
    out.append("    /// Whether `path` names a method that answers with a stream: string comparisons only, for")
    out.append("    /// callers that ask for every request and would otherwise hash the path into a `WireMethod`.")
    out.append("    public static func isServerStreaming(path: String) -> Bool {")
    if streaming:
        out.append("        " + " || ".join(f"path == {camel(snake(r.name))}.rawValue" for r in streaming))
    else:
        out.append("        false")
    out.append("    }")
    out.append("")
    out.append("    /// Whether the method needs the `authorization` metadata (every method but Ping).")
    out.append("    public var requiresAuthentication: Bool {")
    out.append("        self != .ping")
    out.append("    }")
    out.append("")
    out.append("    /// The method's name without the service, e.g. `GetHeatmap`.")
    out.append("    public var name: String {")
    out.append("        switch self {")
    for rpc in rpcs:
        out.append(f'        case .{camel(snake(rpc.name))}: "{rpc.name}"')
    out.append("        }")
    out.append("    }")
    out.append("")
    out.append("    /// The request message type.")
    out.append("    public var requestType: any WireMessage.Type {")
    out.append("        switch self {")
    for rpc in rpcs:
        out.append(f"        case .{camel(snake(rpc.name))}: Wire{rpc.request}.self")
    out.append("        }")
    out.append("    }")
    out.append("")
    out.append("    /// The response message type (of each stream message for a streaming method).")
    out.append("    public var responseType: any WireMessage.Type {")
    out.append("        switch self {")
    for rpc in rpcs:
        out.append(f"        case .{camel(snake(rpc.name))}: Wire{rpc.response}.self")
    out.append("        }")
    out.append("    }")
    out.append("}")
    return "\n".join(out) + "\n"


def generate_reference_writers(messages, message_names):
    """The test oracle: every message's `write(_:to:)` for `WireWriter`, an encoder written from
    the protobuf encoding rules alone that the tests compare byte for byte with protobuf-c's."""
    out = [
        "// Generated by scripts/generate-wire-swift.py from proto/streak/v1. Do not edit.",
        "// The reference encoder of the tests (see WireWriter.swift); StreakWire encodes with protobuf-c.",
        "",
        "@testable import StreakWire",
    ]
    for message in messages:
        out.append("")
        out.append(f"extension Wire{message.name}: ReferenceWritable {{")
        all_fields = message.fields + [f for _, _, fs in message.oneofs for f in fs]
        if all_fields:
            out.append("    static func write(_ m: UnsafePointer<Self>, to writer: inout WireWriter) {")
            for field in sorted(all_fields, key=lambda f: -f.number):
                out += ["        " + l for l in write_field(field, message_names)]
        else:
            out.append("    static func write(_: UnsafePointer<Self>, to _: inout WireWriter) {")
        out.append("    }")
        out.append("}")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--proto", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--test-out", required=True, help="where the tests' reference writers go")
    args = parser.parse_args()
    messages, enums, rpcs = [], {}, []
    for name in sorted(os.listdir(args.proto)):
        if name.endswith(".proto"):
            parse(os.path.join(args.proto, name), messages, enums, rpcs)
    if set(enums) != {"Weekday"}:
        sys.exit(f"the generator knows only the Weekday enum, found {sorted(enums)}")
    names = {m.name for m in messages}
    for message in messages:
        nested = {e[0] for e in message.enums}
        for field in message.fields:
            field.nested_enum = field.proto_type in nested
        for _, _, fields in message.oneofs:
            for field in fields:
                if field.proto_type in nested:
                    sys.exit(f"an enum in a oneof ({field.name}) is not supported by the generator")
    for message in messages:
        path = os.path.join(args.out, f"Wire{message.name}.swift")
        with open(path, "w") as handle:
            handle.write(generate_message(message, names))
    with open(os.path.join(args.out, "WireMethod.swift"), "w") as handle:
        handle.write(generate_methods(rpcs))
    with open(os.path.join(args.test_out, "WireReferenceWriters.swift"), "w") as handle:
        handle.write(generate_reference_writers(messages, names))


if __name__ == "__main__":
    main()
