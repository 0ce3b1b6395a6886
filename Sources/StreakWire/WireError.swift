public import StreakCore

/// An error from decoding a protobuf message. It maps to a gRPC status (`rpcStatusCode`) for the RESPONSE
/// that answers the request which carried the message.
public struct WireError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a value that can gain cases without breaking callers.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        /// Bytes that are not a valid encoding of the message (truncated, bad wire type, garbage).
        public static let malformed = Code(name: "malformed")
        /// A present `Date` that is not a real day in 0001-01-01...9999-12-31.
        public static let invalidDate = Code(name: "invalidDate")
        /// Decoding needed more memory than `DecodingLimits.maxAllocationBytes`.
        public static let tooLarge = Code(name: "tooLarge")
        /// A field value the schema does not allow: an unknown enum value, a string that is not UTF-8.
        public static let invalidValue = Code(name: "invalidValue")
        /// The code's name, e.g. `invalidDate`.
        public var description: String { name }
    }

    /// The kind of error.
    public var code: Code
    /// A human-readable explanation, free of user data beyond the offending value or field name.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

extension WireError: RPCStatusConvertible {
    /// RESOURCE_EXHAUSTED for `.tooLarge`, otherwise INVALID_ARGUMENT.
    public var rpcStatusCode: RPCStatusCode { code == .tooLarge ? .resourceExhausted : .invalidArgument }
    /// The message (it names at most the offending value or field).
    public var rpcStatusMessage: String { message }
}
