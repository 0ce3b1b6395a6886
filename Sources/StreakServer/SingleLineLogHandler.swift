import Logging

/// A log handler that keeps every entry on one line, then hands it to another handler (the
/// server's `StreamLogHandler` on standard error).
///
/// Some messages that reach the log come from elsewhere with line breaks in them (libpq's
/// errors end in a newline and may add `HINT:` lines). Written as they are, the second line has no
/// timestamp, level or `ref=`, so `grep ref=...` finds a fragment. Line breaks (and other
/// control characters) in the message and in metadata values are written escaped instead:
/// `\n`, `\r`, `\t`, `\u{1B}`.
public struct SingleLineLogHandler<Inner: LogHandler>: LogHandler {
    /// The handler that writes the entries.
    public var inner: Inner

    /// Wraps `inner`.
    public init(_ inner: Inner) {
        self.inner = inner
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { inner.metadataProvider }
        set { inner.metadataProvider = newValue }
    }

    public var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }

    public var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    public func log(event: LogEvent) {
        var event = event
        let message = event.message.description
        if Self.needsEscaping(message) { event.message = Logger.Message(stringLiteral: Self.escaped(message)) }
        if let metadata = event.metadata { event.metadata = metadata.mapValues(Self.singleLine) }
        inner.log(event: event)
    }

    /// `value` with every string in it on one line.
    static func singleLine(_ value: Logger.Metadata.Value) -> Logger.Metadata.Value {
        switch value {
        case .string(let text):
            return Self.needsEscaping(text) ? .string(escaped(text)) : value
        case .stringConvertible(let convertible):
            let text = convertible.description
            return Self.needsEscaping(text) ? .string(escaped(text)) : value
        case .dictionary(let dictionary):
            return .dictionary(dictionary.mapValues(singleLine))
        case .array(let array):
            return .array(array.map(singleLine))
        }
    }

    /// Whether `text` has a control character (C0 or DEL), which `escaped` would change.
    static func needsEscaping(_ text: String) -> Bool {
        text.utf8.contains { $0 < 0x20 || $0 == 0x7F }
    }

    /// `text` with its control characters written as Swift escapes.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
