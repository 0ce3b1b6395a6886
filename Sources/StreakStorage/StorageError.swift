/// An error from storage: a code that can grow, a message free of tokens and habit names,
/// and the gRPC status it maps to when it crosses the wire.
public struct StorageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        let status: UInt8
        /// No such user, habit or row for this user (NOT_FOUND).
        public static let notFound = Code(name: "notFound", status: 5)
        /// The user or state already exists (ALREADY_EXISTS).
        public static let alreadyExists = Code(name: "alreadyExists", status: 6)
        /// A value outside its documented range (INVALID_ARGUMENT).
        public static let invalidArgument = Code(name: "invalidArgument", status: 3)
        /// A token that is unknown or revoked (UNAUTHENTICATED).
        public static let unauthenticated = Code(name: "unauthenticated", status: 16)
        /// The database could not be read or written (UNAVAILABLE: retrying may succeed).
        public static let io = Code(name: "io", status: 14)
        /// The database holds something it should not (INTERNAL).
        public static let corrupt = Code(name: "corrupt", status: 13)
        /// The store was closed (UNAVAILABLE).
        public static let closed = Code(name: "closed", status: 14)
        public var description: String { name }
    }

    /// The kind of error.
    public var code: Code
    /// A human-readable explanation.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The gRPC status code this error maps to.
    public var grpcStatusCode: UInt8 { code.status }

    public var description: String { message }
}
