import StreakCore
import StreakFraming
import StreakStorage
import StreakWire

/// An error the service answers a request with: a gRPC status code and a message free of user data.
public struct ServiceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The status sent to the client.
    public var status: Status
    /// The error this one was made from (a core validation, a decoding error), for logs; never
    /// sent, and not part of equality.
    public var cause: (any Error & Sendable)?

    /// Creates an error with a code and a message.
    public init(_ code: Status.Code, _ message: String, cause: (any Error & Sendable)? = nil) {
        status = Status(code, message)
        self.cause = cause
    }

    /// Equal when the statuses are (the cause aside).
    public static func == (lhs: ServiceError, rhs: ServiceError) -> Bool { lhs.status == rhs.status }

    /// Hashes the status.
    public func hash(into hasher: inout Hasher) { hasher.combine(status) }

    /// The status, e.g. `NOT_FOUND: no habit with id 7`.
    public var description: String { status.description }

    static let unauthenticated = ServiceError(.unauthenticated, "missing or invalid bearer token")
    static let shuttingDown = ServiceError(.unavailable, Status.shuttingDown.message)
    static func unimplemented(_ method: String) -> ServiceError {
        ServiceError(.unimplemented, "unknown method \(method.prefix(200))")
    }
    static func habitNotFound(_ id: Int64) -> ServiceError {
        ServiceError(.notFound, "no habit with id \(id)")
    }
    static func invalidArgument(_ message: String, cause: (any Error & Sendable)? = nil) -> ServiceError {
        ServiceError(.invalidArgument, message, cause: cause)
    }

    /// The status for any error thrown while handling a request; unknown errors become INTERNAL
    /// without their description (it might carry user data).
    static func status(for error: any Error) -> Status {
        switch error {
        case let error as ServiceError:
            return error.status
        case let error as any RPCStatusConvertible:
            return Status(Status.Code(rawValue: error.rpcStatusCode.rawValue), error.rpcStatusMessage)
        default:
            return Status(.internal, "internal error")
        }
    }

    /// The reference that ties a storage error's answer to its log line: `value` as 8 lowercase
    /// hexadecimal digits, zero-padded (`09979d98`), so every reference has the same length.
    static func reference(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}
