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

/// The service behind the transport: it knows requests and answers, not sockets.
public protocol RequestHandler: Sendable {
    /// Called on the connection's event loop thread once per read burst with every request the
    /// burst accepted, in the order they arrived (never empty). Must not block: answer inline (the
    /// fast path) or later, from any thread, through `responder`; work that blocks should leave the
    /// loop in one hop for the whole burst, not one per request. Answers given
    /// during the call are written together with one `send` when it returns.
    func handle(_ requests: [IncomingRequest], responder: Responder)

    /// Whether `method` is server-streaming: a request the transport refuses before the handler
    /// sees it (over the in-flight limit, a bad `deadline-ms`, shutting down) then ends with
    /// END_STREAM, the final frame a client of a stream waits for, instead of a RESPONSE.
    func isServerStreaming(_ method: String) -> Bool
}

extension RequestHandler {
    /// No method streams unless the handler says so.
    public func isServerStreaming(_ method: String) -> Bool { false }
}
