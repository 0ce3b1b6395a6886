/// The lifecycle of one connection, apart from sockets so that it is tested transition by
/// transition (`ConnectionStateMachineTests`).
///
/// ```
/// awaitingPreface ─preface─▶ active ─GOAWAY (shutdown, idle)─▶ draining ─answered─▶ lingering ─▶ closed
///        │                     │                                                      ▲
///        └──────protocol error─┴──▶ failed (GOAWAY with the reason) ─answered─────────┘
/// ```
/// Any state may close at once (a reset, a send error, the linger timer). Two facts run beside
/// the state: whether our preface went out (it precedes every frame we send), and whether the
/// peer stopped sending (half-closed: its streams end, its requests are still answered).
struct ConnectionStateMachine: Sendable {
    enum State: Equatable, Sendable {
        /// Accepted; the client's preface has not arrived yet.
        case awaitingPreface
        /// Serving requests.
        case active
        /// GOAWAY sent on shutdown or idleness: requests accepted before it are answered, later
        /// ones refused; then the connection lingers and closes.
        case draining
        /// GOAWAY sent after a protocol error: nothing more is read; requests accepted before the
        /// error are answered, then the connection lingers and closes.
        case failed
        /// Everything was answered and the write side shut down; input is read and dropped (so
        /// that a reset cannot destroy the answers) until the linger timer closes the connection.
        case lingering
        /// Closed: the descriptor is gone.
        case closed
    }

    /// What to do with a request that arrived.
    enum RequestAction: Equatable, Sendable {
        case accept
        /// The connection is draining: answer UNAVAILABLE.
        case refuseDraining
        /// Failed, lingering or closed: the request is dropped.
        case ignore
    }

    /// What to do once every byte of output was written.
    enum FlushAction: Equatable, Sendable {
        case none
        /// Shut down the write side, drop input for a while, then close.
        case linger
        /// Close now (the peer stopped sending and everything was answered).
        case close
    }

    /// What the idle sweeper should do.
    enum IdleAction: Equatable, Sendable {
        case none
        /// Answer nothing more: close now.
        case close
        /// Send GOAWAY with this last request id, then drain.
        case goAway(lastRequestID: UInt32)
    }

    private(set) var state = State.awaitingPreface
    /// The highest request id received, for GOAWAY.
    private(set) var highestRequestID: UInt32 = 0
    /// Whether our preface was sent.
    private(set) var prefaceSent = false
    /// Whether the peer shut down its sending side.
    private(set) var peerEnded = false

    /// The client's preface arrived. - Returns: whether ours must be sent now.
    mutating func prefaceReceived() -> Bool {
        guard state == .awaitingPreface else { return false }
        state = .active
        return sendPreface()
    }

    /// Our preface is about to be sent before a frame. - Returns: false when it already was.
    mutating func sendPreface() -> Bool {
        guard !prefaceSent, state != .closed else { return false }
        prefaceSent = true
        return true
    }

    /// A request arrived.
    mutating func requestReceived(id: UInt32) -> RequestAction {
        switch state {
        case .awaitingPreface, .active:
            highestRequestID = max(highestRequestID, id)
            return .accept
        case .draining:
            return .refuseDraining
        case .failed, .lingering, .closed:
            return .ignore
        }
    }

    /// Starts draining (shutdown). - Returns: the last request id for GOAWAY, or nil when the
    /// connection is already draining, failed, lingering or closed.
    mutating func beginDraining() -> UInt32? {
        guard state == .active || state == .awaitingPreface else { return nil }
        state = .draining
        return highestRequestID
    }

    /// A protocol error. - Returns: the last request id for GOAWAY, or nil when the connection
    /// already failed, lingers or is closed (one GOAWAY only).
    mutating func protocolError() -> UInt32? {
        switch state {
        case .awaitingPreface, .active, .draining:
            state = .failed
            return highestRequestID
        case .failed, .lingering, .closed:
            return nil
        }
    }

    /// The peer shut down its sending side. - Returns: whether its streams must end now (the
    /// first time, while the connection still serves).
    mutating func peerStoppedSending() -> Bool {
        guard !peerEnded else { return false }
        peerEnded = true
        return state == .awaitingPreface || state == .active || state == .draining || state == .failed
    }

    /// Every byte of output was written.
    /// - Parameter finished: the responder has nothing in flight and nothing scheduled to flush.
    mutating func outputFlushed(finished: Bool) -> FlushAction {
        guard finished else { return .none }
        switch state {
        case .draining where peerEnded:
            return .close  // the peer sends nothing more: no reset can destroy the answers
        case .failed, .draining:
            state = .lingering
            return .linger
        case .awaitingPreface, .active:
            return peerEnded ? .close : .none
        case .lingering, .closed:
            return .none
        }
    }

    /// The idle timeout passed with no bytes moving.
    /// - Parameter inFlight: the requests still waiting for an answer.
    mutating func idleTimeoutPassed(inFlight: Int) -> IdleAction {
        switch state {
        case .failed, .lingering:
            return .close
        case .awaitingPreface, .active, .draining:
            // Nothing more will be read and nothing moved since: do not wait on its requests forever.
            if peerEnded { return .close }
            guard inFlight == 0, let last = beginDraining() else { return .none }
            return .goAway(lastRequestID: last)
        case .closed:
            return .none
        }
    }

    /// Closes. - Returns: false when it was already closed.
    mutating func close() -> Bool {
        guard state != .closed else { return false }
        state = .closed
        return true
    }

    /// Whether frames from the socket are decoded and handled.
    var readsFrames: Bool {
        state == .awaitingPreface || state == .active || state == .draining
    }

    /// Whether reads that were paused for backpressure may resume.
    var mayResumeReads: Bool { readsFrames && !peerEnded }

    var isClosed: Bool { state == .closed }
    var isLingering: Bool { state == .lingering }
    var isAwaitingPreface: Bool { state == .awaitingPreface }
}
