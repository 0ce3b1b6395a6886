public import StreakFraming

/// An error from a call: the gRPC status code and a message that says what went wrong.
///
/// Errors the server sent keep its code and message. Errors found locally use the closest
/// status: UNAVAILABLE when the server cannot be reached or the connection breaks,
/// DEADLINE_EXCEEDED when the local deadline passes, CANCELLED when the task is cancelled,
/// INTERNAL for a response that does not decode. `detail` names the failures a program may
/// want to tell apart without reading the message (a certificate from an unknown CA, a bad
/// environment variable ...).
public struct StreakClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where the error was found.
    public struct Origin: Hashable, Sendable, CustomStringConvertible {
        let name: String
        /// The server answered with this status.
        public static let server = Origin(name: "server")
        /// No connection could be made (refused, unknown host, timed out connecting).
        public static let connect = Origin(name: "connect")
        /// The connection broke, or the server went away before answering.
        public static let connection = Origin(name: "connection")
        /// Found by the client itself: a local deadline, a cancellation, an undecodable answer.
        public static let local = Origin(name: "local")
        /// The origin's name.
        public var description: String { name }
    }

    /// Which failure, among those a program may want to handle on its own. More cases may
    /// come: a `switch` over it needs a `default`.
    public enum Detail: Hashable, Sendable {
        /// TLS: no trusted CA signed the server's certificate (or it signed itself).
        case tlsUnknownAuthority
        /// TLS: the server's certificate is not for the name (or address) checked.
        case tlsHostnameMismatch
        /// TLS: the server's certificate expired, or is not valid yet.
        case tlsCertificateOutOfDate
        /// TLS: the server's certificate failed verification for another reason.
        case tlsCertificateRejected
        /// The environment variable `name` holds a value that means nothing (e.g. STREAK_TLS=maybe).
        case invalidEnvironment(name: String)
        /// The server address does not parse.
        case invalidServerAddress
        /// A token would travel unencrypted to another machine.
        case tokenInClear
        /// The token file at `path` exists but cannot be read; `reason` says why in words
        /// ("cannot be read: permission denied", "is a directory, not a file" ...).
        case tokenFileUnreadable(path: String, reason: String)
    }

    /// The status code, with gRPC's numbering.
    public var code: Status.Code
    /// A human-readable explanation.
    public var message: String
    /// Where the error was found.
    public var origin: Origin
    /// True when the server promised (by GOAWAY) never to process the request, so it is safe to retry.
    public var isSafeToRetry: Bool
    /// The `errno` of the system call that failed, when one did: e.g. ECONNREFUSED when no
    /// server listens on the port (origin `.connect`), ETIMEDOUT when connecting timed out.
    public var systemErrorCode: Int32?
    /// Which failure this is, when it is one a program may handle on its own; nil otherwise.
    public var detail: Detail?

    /// Creates an error.
    public init(
        _ code: Status.Code,
        _ message: String,
        origin: Origin = .local,
        isSafeToRetry: Bool = false,
        systemErrorCode: Int32? = nil,
        detail: Detail? = nil
    ) {
        self.code = code
        self.message = message
        self.origin = origin
        self.isSafeToRetry = isSafeToRetry
        self.systemErrorCode = systemErrorCode
        self.detail = detail
    }

    /// An error carrying a status the server sent.
    public init(status: Status) {
        self.init(status.code, status.message, origin: .server)
    }

    /// The status this error corresponds to.
    public var status: Status { Status(code, message) }

    /// `CODE: message`, e.g. `NOT_FOUND: habit 7 not found`.
    public var description: String { message.isEmpty ? "\(code)" : "\(code): \(message)" }
}
