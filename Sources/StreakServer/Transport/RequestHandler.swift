import Dispatch
import StreakFraming

/// A request as the transport hands it over: method, metadata, message and deadline.
public struct IncomingRequest: Sendable {
    /// The client's request id.
    public let id: UInt32
    /// The method path, e.g. `/streak.v1.Streaks/GetHeatmap`.
    public let method: String
    /// The metadata entries.
    public let metadata: [MetadataEntry]
    /// The serialized request message.
    public let message: [UInt8]
    /// When the client stops waiting (from `deadline-ms`); nil without one.
    public let deadline: DispatchTime?
    /// Tells this request from a later one that reuses its id once it ended (see `Responder`).
    public let generation: UInt64?

    /// Creates a request.
    public init(
        id: UInt32,
        method: String,
        metadata: [MetadataEntry],
        message: [UInt8],
        deadline: DispatchTime?,
        generation: UInt64? = nil
    ) {
        self.id = id
        self.method = method
        self.metadata = metadata
        self.message = message
        self.deadline = deadline
        self.generation = generation
    }

    /// The value of the first metadata entry with `key`.
    public func metadataValue(_ key: String) -> String? {
        metadata.first { $0.key == key }?.value
    }
}

/// The service behind the transport.
public protocol RequestHandler: Sendable {
    /// Called on the connection's serial queue once per request of a read burst. Must not
    /// block: answer inline (the fast path) or later, from any thread, through `responder`.
    func handle(_ request: IncomingRequest, responder: Responder)

    /// Called on the connection's queue after every request of a read burst was handed over,
    /// so that blocking work can hop once per burst rather than once per request.
    func didFinishReadBurst(responder: Responder)
}

extension RequestHandler {
    /// Does nothing.
    public func didFinishReadBurst(responder: Responder) {}
}
