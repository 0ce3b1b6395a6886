/// A gRPC status code, numbered as gRPC numbers them: the status an error is answered with.
public struct RPCStatusCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The gRPC number.
    public let rawValue: UInt8

    /// A code by its gRPC number.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// INVALID_ARGUMENT (3).
    public static let invalidArgument = RPCStatusCode(rawValue: 3)
    /// NOT_FOUND (5).
    public static let notFound = RPCStatusCode(rawValue: 5)
    /// ALREADY_EXISTS (6).
    public static let alreadyExists = RPCStatusCode(rawValue: 6)
    /// RESOURCE_EXHAUSTED (8).
    public static let resourceExhausted = RPCStatusCode(rawValue: 8)
    /// FAILED_PRECONDITION (9).
    public static let failedPrecondition = RPCStatusCode(rawValue: 9)
    /// INTERNAL (13).
    public static let `internal` = RPCStatusCode(rawValue: 13)
    /// UNAVAILABLE (14).
    public static let unavailable = RPCStatusCode(rawValue: 14)
    /// UNAUTHENTICATED (16).
    public static let unauthenticated = RPCStatusCode(rawValue: 16)

    /// The number, e.g. `5`.
    public var description: String { "\(rawValue)" }
}

/// An error that says which status it is answered with, and with which message, when it ends a
/// request: the one place each module's errors are converted (the service sends what this says).
public protocol RPCStatusConvertible: Error {
    /// The status code the request is answered with.
    var rpcStatusCode: RPCStatusCode { get }
    /// The message the client sees: free of user data and of storage-engine text.
    var rpcStatusMessage: String { get }
}
