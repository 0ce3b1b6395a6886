/// The raw outcome of a call: the response message bytes or an error.
typealias CallResult = Result<[UInt8], StreakClientError>

/// A unary call waiting for its RESPONSE. The result may arrive before the caller's
/// continuation is attached (a cancellation racing the send), so it is kept until then.
///
/// `@unchecked Sendable`: both fields are read and written only while the owning connection's
/// state mutex is held (`StreakConnection`).
final class UnaryCall: @unchecked Sendable {
    var continuation: CheckedContinuation<CallResult, Never>?
    var result: CallResult?
}

/// A request in flight on a connection.
enum PendingCall: Sendable {
    case unary(UnaryCall)
    case stream(AsyncStream<CallResult>.Continuation)
}
