/// One frame of the Streakd protocol (docs/PROTOCOL.md, section 2).
public enum Frame: Hashable, Sendable {
    /// A call from the client: method path, metadata and the serialized request message. Its id is
    /// greater than 0.
    case request(id: UInt32, method: String, metadata: [MetadataEntry], message: [UInt8])
    /// The answer to a unary call. `message` is empty unless `status.code` is `.ok`.
    case response(id: UInt32, status: Status, message: [UInt8])
    /// One message of a server-streaming call.
    case streamMessage(id: UInt32, message: [UInt8])
    /// The end of a server-streaming call, with its final status.
    case endStream(id: UInt32, status: Status)
    /// The client gives up on a request.
    case cancel(id: UInt32)
    /// A liveness probe carrying 8 opaque bytes.
    case ping(UInt64)
    /// The answer to a ping, echoing its bytes.
    case pong(UInt64)
    /// The server answers requests up to `lastRequestID` and then closes.
    case goAway(lastRequestID: UInt32, status: Status)
}

/// The kind byte that follows a frame's length.
public enum FrameKind: UInt8, Sendable, CaseIterable {
    case request = 1
    case response = 2
    case streamMessage = 3
    case endStream = 4
    case cancel = 5
    case ping = 6
    case pong = 7
    case goAway = 8
}

/// One metadata entry of a request: an ASCII key and a value.
public struct MetadataEntry: Hashable, Sendable {
    /// The key, printable ASCII, at most 255 bytes, e.g. `authorization`.
    public var key: String
    /// The value, at most 65,535 bytes of UTF-8.
    public var value: String

    /// Creates an entry.
    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }

    /// The key that carries `Bearer <token>`.
    public static let authorizationKey = "authorization"
    /// The key that carries the deadline in milliseconds, ASCII decimal.
    public static let deadlineKey = "deadline-ms"
}

/// A call's outcome: a gRPC status code and a human-readable message.
public struct Status: Hashable, Sendable, CustomStringConvertible {
    /// A gRPC status code, with gRPC's numbering.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let ok = Code(rawValue: 0)
        public static let cancelled = Code(rawValue: 1)
        public static let unknown = Code(rawValue: 2)
        public static let invalidArgument = Code(rawValue: 3)
        public static let deadlineExceeded = Code(rawValue: 4)
        public static let notFound = Code(rawValue: 5)
        public static let alreadyExists = Code(rawValue: 6)
        public static let permissionDenied = Code(rawValue: 7)
        public static let resourceExhausted = Code(rawValue: 8)
        public static let failedPrecondition = Code(rawValue: 9)
        public static let unimplemented = Code(rawValue: 12)
        public static let `internal` = Code(rawValue: 13)
        public static let unavailable = Code(rawValue: 14)
        public static let unauthenticated = Code(rawValue: 16)

        /// gRPC's name for the code, e.g. `INVALID_ARGUMENT`.
        public var description: String {
            switch rawValue {
            case 0: "OK"
            case 1: "CANCELLED"
            case 2: "UNKNOWN"
            case 3: "INVALID_ARGUMENT"
            case 4: "DEADLINE_EXCEEDED"
            case 5: "NOT_FOUND"
            case 6: "ALREADY_EXISTS"
            case 7: "PERMISSION_DENIED"
            case 8: "RESOURCE_EXHAUSTED"
            case 9: "FAILED_PRECONDITION"
            case 10: "ABORTED"
            case 11: "OUT_OF_RANGE"
            case 12: "UNIMPLEMENTED"
            case 13: "INTERNAL"
            case 14: "UNAVAILABLE"
            case 15: "DATA_LOSS"
            case 16: "UNAUTHENTICATED"
            default: "CODE_\(rawValue)"
            }
        }
    }

    /// The code.
    public var code: Code
    /// The message, at most 65,535 bytes of UTF-8; empty for OK.
    public var message: String

    /// Creates a status.
    public init(_ code: Code, _ message: String = "") {
        self.code = code
        self.message = message
    }

    /// OK with no message.
    public static let ok = Status(.ok)

    /// UNAVAILABLE because the server is shutting down: what GOAWAY, the streams it ends and the
    /// requests it refuses say, in the transport and the service alike.
    public static let shuttingDown = Status(.unavailable, "the server is shutting down")

    public var description: String { message.isEmpty ? "\(code)" : "\(code): \(message)" }
}

/// The bytes a connection starts with, in both directions: "STREAKD" and the version.
public enum Preface {
    /// The protocol version this build speaks.
    public static let version: UInt8 = 1
    /// The 8 preface bytes.
    public static let bytes: [UInt8] = Array("STREAKD".utf8) + [version]
}
