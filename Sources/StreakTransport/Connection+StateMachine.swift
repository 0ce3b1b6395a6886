/// The lifecycle of one connection, kept apart from sockets so it can be tested alone.
///
/// awaitingPreface -> active -> draining (GOAWAY sent) -> closed; any state may close.
struct ConnectionStateMachine: Sendable {
    enum State: Equatable, Sendable {
        case awaitingPreface
        case active
        case draining
        case closed
    }

    /// What to do with a request that arrived.
    enum RequestAction: Equatable, Sendable {
        case accept
        /// The connection is draining: answer UNAVAILABLE.
        case refuseDraining
        case ignoreClosed
    }

    private(set) var state = State.awaitingPreface
    /// The highest request id received, for GOAWAY.
    private(set) var highestRequestID: UInt32 = 0

    /// The client's preface arrived. - Returns: whether ours must be sent now.
    mutating func prefaceReceived() -> Bool {
        guard state == .awaitingPreface else { return false }
        state = .active
        return true
    }

    mutating func requestReceived(id: UInt32) -> RequestAction {
        switch state {
        case .awaitingPreface, .active:
            highestRequestID = max(highestRequestID, id)
            return .accept
        case .draining:
            return .refuseDraining
        case .closed:
            return .ignoreClosed
        }
    }

    /// Starts draining. - Returns: the last request id for GOAWAY, or nil when already draining or closed.
    mutating func beginDraining() -> UInt32? {
        guard state == .active || state == .awaitingPreface else { return nil }
        state = .draining
        return highestRequestID
    }

    /// Whether a draining connection has nothing left to answer and may close.
    func mayCloseAfterDraining(inFlight: Int, unsentBytes: Int) -> Bool {
        state == .draining && inFlight == 0 && unsentBytes == 0
    }

    /// Closes. - Returns: false when it was already closed.
    mutating func close() -> Bool {
        guard state != .closed else { return false }
        state = .closed
        return true
    }

    var isClosed: Bool { state == .closed }
    var isAwaitingPreface: Bool { state == .awaitingPreface }
}
