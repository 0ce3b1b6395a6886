/// Parses the body of one frame (everything after the kind and the request id).
struct FrameBodyReader {
    private let bytes: ArraySlice<UInt8>
    private let kind: FrameKind
    private var index: Int

    init(bytes: ArraySlice<UInt8>, kind: FrameKind) {
        self.bytes = bytes
        self.kind = kind
        self.index = bytes.startIndex
    }

    /// The frame; a request's method and metadata values reuse the strings of `recent` when their
    /// bytes are the same, and are remembered there when they are not.
    mutating func frame(id: UInt32, recent: inout RepeatedRequestParts) throws(FramingError) -> Frame {
        switch kind {
        case .request:
            guard id > 0 else { throw malformed("request id must be greater than 0") }
            let method = try string(wide: true, what: "method", recent: &recent)
            let count = Int(try uint8(what: "metadata count"))
            // The last request's array while every entry so far equals its own, else a new one.
            var metadata = recent.metadata
            var repeated = metadata.count == count
            if !repeated { metadata = Self.entries(capacity: count, first: []) }
            for index in 0..<count {
                let key = try string(wide: false, what: "metadata key")
                guard key.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
                    throw malformed("metadata key is not printable ASCII")
                }
                let entry = MetadataEntry(
                    key: key,
                    value: try string(wide: true, what: "metadata value", recent: &recent)
                )
                if repeated && metadata[index] == entry { continue }
                if repeated {
                    repeated = false
                    metadata = Self.entries(capacity: count, first: metadata.prefix(index))
                }
                metadata.append(entry)
            }
            if !repeated { recent.remember(metadata: metadata) }
            return .request(id: id, method: method, metadata: metadata, message: rest())
        case .response:
            let status = try self.status()
            let message = rest()
            guard status.code == .ok || message.isEmpty else {
                throw malformed("a response with status \(status.code) must not carry a message")
            }
            return .response(id: id, status: status, message: message)
        case .streamMessage:
            return .streamMessage(id: id, message: rest())
        case .endStream:
            let status = try self.status()
            try expectEnd()
            return .endStream(id: id, status: status)
        case .cancel:
            try expectEnd()
            return .cancel(id: id)
        case .ping, .pong:
            guard id == 0 else { throw malformed("\(kind) frames carry request id 0") }
            let payload = UInt64(try uint32(what: "payload")) << 32 | UInt64(try uint32(what: "payload"))
            try expectEnd()
            return kind == .ping ? .ping(payload) : .pong(payload)
        case .goAway:
            guard id == 0 else { throw malformed("GOAWAY frames carry request id 0") }
            let last = try uint32(what: "last request id")
            let status = try self.status()
            try expectEnd()
            return .goAway(lastRequestID: last, status: status)
        }
    }

    /// A new metadata array with room for `capacity` entries, starting with `first`.
    private static func entries(capacity: Int, first: ArraySlice<MetadataEntry>) -> [MetadataEntry] {
        var entries: [MetadataEntry] = []
        entries.reserveCapacity(capacity)
        entries.append(contentsOf: first)
        return entries
    }

    private mutating func status() throws(FramingError) -> Status {
        let code = try uint8(what: "status code")
        return Status(Status.Code(rawValue: code), try string(wide: true, what: "status message"))
    }

    private mutating func uint8(what: String) throws(FramingError) -> UInt8 {
        guard index < bytes.endIndex else { throw malformed("the frame ends before its \(what)") }
        defer { index += 1 }
        return bytes[index]
    }

    private mutating func uint32(what: String) throws(FramingError) -> UInt32 {
        guard bytes.endIndex - index >= 4 else { throw malformed("the frame ends before its \(what)") }
        defer { index += 4 }
        return UInt32(bytes[index]) << 24 | UInt32(bytes[index + 1]) << 16 | UInt32(bytes[index + 2]) << 8
            | UInt32(bytes[index + 3])
    }

    private mutating func string(wide: Bool, what: String) throws(FramingError) -> String {
        let text = try textBytes(wide: wide, what: what).withUnsafeBufferPointer(Self.decode)
        guard let text else { throw malformed("the \(what) is not valid UTF-8") }
        return text
    }

    /// A string as `string(wide:what:)`, taken from `recent` when it holds one with these bytes.
    private mutating func string(
        wide: Bool,
        what: String,
        recent: inout RepeatedRequestParts
    ) throws(FramingError) -> String {
        let text = try textBytes(wide: wide, what: what).withUnsafeBufferPointer { utf8 -> String? in
            if let known = recent.string(matching: utf8) { return known }
            let text = Self.decode(utf8)
            if let text { recent.remember(text) }
            return text
        }
        guard let text else { throw malformed("the \(what) is not valid UTF-8") }
        return text
    }

    /// The bytes of a string field: its length (one byte, or two when `wide`), then the bytes.
    private mutating func textBytes(wide: Bool, what: String) throws(FramingError) -> ArraySlice<UInt8> {
        var length = Int(try uint8(what: what))
        if wide { length = length << 8 | Int(try uint8(what: what)) }
        guard bytes.endIndex - index >= length else { throw malformed("the frame ends inside its \(what)") }
        defer { index += length }
        return bytes[index..<(index + length)]
    }

    /// The text of `utf8`, or nil when it is not valid UTF-8.
    private static func decode(_ utf8: UnsafeBufferPointer<UInt8>) -> String? {
        // Methods, keys and tokens are ASCII: decoding it needs no validation (and skips the
        // generic validating path, a few percent of a cached read's CPU).
        utf8.allSatisfy { $0 < 0x80 }
            ? String(decoding: utf8, as: UTF8.self) : String(validating: utf8, as: UTF8.self)
    }

    private func rest() -> [UInt8] { Array(bytes[index...]) }

    private func expectEnd() throws(FramingError) {
        guard index == bytes.endIndex else {
            throw malformed("\(bytes.endIndex - index) unexpected bytes at the end of a \(kind) frame")
        }
    }

    private func malformed(_ message: String) -> FramingError { FramingError(.malformed, message) }
}
