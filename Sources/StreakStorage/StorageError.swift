public import StreakCore

/// An error from storage: a code that can grow, a message free of tokens and habit names, the
/// error it was made from (if any), and the gRPC status it maps to when it crosses the wire.
public struct StorageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        let status: RPCStatusCode
        /// No such user, habit or row for this user (NOT_FOUND).
        public static let notFound = Code(name: "notFound", status: .notFound)
        /// The user or state already exists (ALREADY_EXISTS).
        public static let alreadyExists = Code(name: "alreadyExists", status: .alreadyExists)
        /// A value outside its documented range (INVALID_ARGUMENT).
        public static let invalidArgument = Code(name: "invalidArgument", status: .invalidArgument)
        /// The data is not in the state the change needs, e.g. unarchiving a live habit (FAILED_PRECONDITION).
        public static let failedPrecondition = Code(name: "failedPrecondition", status: .failedPrecondition)
        /// A token that is unknown or revoked (UNAUTHENTICATED).
        public static let unauthenticated = Code(name: "unauthenticated", status: .unauthenticated)
        /// The database could not be read or written (UNAVAILABLE: retrying may succeed).
        public static let io = Code(name: "io", status: .unavailable)
        /// The database holds something it should not (INTERNAL).
        public static let corrupt = Code(name: "corrupt", status: .internal)
        /// The disk is full (RESOURCE_EXHAUSTED): writes fail until there is room again.
        public static let diskFull = Code(name: "diskFull", status: .resourceExhausted)
        /// A per-user limit was reached, e.g. the habit limit (RESOURCE_EXHAUSTED); the message
        /// names the limit.
        public static let limitReached = Code(name: "limitReached", status: .resourceExhausted)
        /// The store was closed (UNAVAILABLE).
        public static let closed = Code(name: "closed", status: .unavailable)
        public var description: String { name }
    }

    /// The kind of error.
    public var code: Code
    /// A human-readable explanation.
    public var message: String
    /// The error this one was made from (a migration's failed statement, a core validation, a
    /// file system call), kept for logs and debugging; not part of equality.
    public var cause: (any Error & Sendable)?
    /// In a call on many items at once (`StreakStore.createUsers`), the index of the item the
    /// error is about, so that the caller can name it (a file's line); nil otherwise. Not part
    /// of equality.
    public var item: Int?

    /// Creates an error.
    public init(_ code: Code, _ message: String, cause: (any Error & Sendable)? = nil, item: Int? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
        self.item = item
    }

    public var description: String { message }

    /// Equal when code and message are (the cause and the item aside).
    public static func == (lhs: StorageError, rhs: StorageError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message
    }

    /// Hashes code and message.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
    }
}

extension StorageError: RPCStatusConvertible {
    /// The code's status.
    public var rpcStatusCode: RPCStatusCode { code.status }

    /// The message, except where it would carry the engine's own words: I/O and corruption
    /// messages name files and SQLite's or PostgreSQL's internals, so they are logged, not sent.
    public var rpcStatusMessage: String {
        switch code {
        case .io: "storage is unavailable, try again later"
        case .diskFull: "disk full: the server cannot store more until there is room"
        case .closed: "the server is shutting down"
        case .corrupt: "internal storage error"
        default: code.status == .internal ? "internal storage error" : message
        }
    }
}

/// The database engine's own words about a failure, kept for the log and never sent to clients.
public struct EngineMessage: Error, Hashable, Sendable, CustomStringConvertible {
    /// The engine's text.
    public let description: String

    public init(_ text: String) {
        description = text
    }
}
