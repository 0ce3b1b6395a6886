/// An error from the domain core: a code that can grow, a message safe to show and log, and the
/// gRPC status it maps to when it crosses the wire.
public struct CoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a value that can gain cases without breaking callers.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        let status: RPCStatusCode
        /// A date that does not exist or lies outside 0001-01-01...9999-12-31 (INVALID_ARGUMENT).
        public static let invalidDate = Code(name: "invalidDate", status: .invalidArgument)
        /// An argument outside its documented range (a month of 13, a threshold of 0) (INVALID_ARGUMENT).
        public static let invalidArgument = Code(name: "invalidArgument", status: .invalidArgument)
        /// A time zone or locale identifier that Foundation does not know (INVALID_ARGUMENT).
        public static let unknownIdentifier = Code(name: "unknownIdentifier", status: .invalidArgument)
        /// A habit id the user does not have, e.g. in a per-habit filter (NOT_FOUND).
        public static let notFound = Code(name: "notFound", status: .notFound)
        /// The code's name.
        public var description: String { name }
    }

    /// The kind of error.
    public var code: Code
    /// A human-readable explanation, free of user data beyond the offending value.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

extension CoreError: RPCStatusConvertible {
    /// INVALID_ARGUMENT, or NOT_FOUND for an id the user does not have.
    public var rpcStatusCode: RPCStatusCode { code.status }
    /// The message (it names at most the offending value).
    public var rpcStatusMessage: String { message }
}
