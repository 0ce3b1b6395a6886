/// A violation of the framing rules of docs/PROTOCOL.md: the connection that sent it cannot go on.
public struct FramingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong, as a value that can gain cases without breaking callers.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        /// The first bytes were not "STREAKD" and version 1.
        public static let badPreface = Code(name: "badPreface")
        /// A length over the receiver's maximum frame size.
        public static let frameTooLarge = Code(name: "frameTooLarge")
        /// A length under 5, the size of the kind and the request id.
        public static let frameTooShort = Code(name: "frameTooShort")
        /// A kind byte outside 1...8.
        public static let unknownKind = Code(name: "unknownKind")
        /// A body that does not parse for its kind.
        public static let malformed = Code(name: "malformed")
        /// The stream ended inside a frame or the preface.
        public static let truncated = Code(name: "truncated")
        public var description: String { name }
    }

    /// The kind of violation.
    public var code: Code
    /// A human-readable explanation.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The status of the GOAWAY frame that reports this error to the peer.
    public var status: Status {
        Status(code == .frameTooLarge ? .resourceExhausted : .invalidArgument, message)
    }

    public var description: String { message }
}
