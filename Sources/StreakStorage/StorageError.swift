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
        /// The database refused what the server sent it: a constraint the store's own checks
        /// should have kept, a value or a statement it cannot take (INTERNAL). Sending the same
        /// request again meets the same refusal, so it is not UNAVAILABLE (`EngineFailure`).
        public static let internalFailure = Code(name: "internalFailure", status: .internal)
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

extension StorageError {
    /// A failed statement as the engine reported it: the code its failure maps to, a message
    /// that names the engine, the operation and the engine's code (never the engine's words,
    /// which stay in `engine`), and the engine's account as the cause.
    init(engine error: EngineError, operation: String, note: String? = nil) {
        let message =
            error.failure == .uniqueViolation
            ? "already exists"
            : "\(error.engine) \(operation) failed (\(error.code))" + (note.map { ": \($0)" } ?? "")
        self.init(error.failure.code, message, cause: error)
    }

    /// The engine's account, when the error comes from a failed statement (or wraps one that
    /// does, as a failed migration does).
    public var engine: EngineError? { (cause as? EngineError) ?? (cause as? StorageError)?.engine }

    /// The message followed by the engine's own words, if any: for a person at the store's own
    /// command line (`streakd user`, `streakd backup`), never for a log or a client, since the
    /// words may quote stored values (`EngineError.textMayHoldUserData`).
    public var messageWithEngineText: String {
        guard let engine, !engine.text.isEmpty else { return message }
        return "\(message): \(engine.text)"
    }
}
