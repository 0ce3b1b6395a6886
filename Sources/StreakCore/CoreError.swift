/// An error from the domain core: a code that can grow, and a message safe to show and log.
public struct CoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a value that can gain cases without breaking callers.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        /// A date that does not exist or lies outside 0001-01-01...9999-12-31.
        public static let invalidDate = Code(name: "invalidDate")
        /// An argument outside its documented range (a month of 13, a threshold of 0).
        public static let invalidArgument = Code(name: "invalidArgument")
        /// A time zone or locale identifier that Foundation does not know.
        public static let unknownIdentifier = Code(name: "unknownIdentifier")
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
