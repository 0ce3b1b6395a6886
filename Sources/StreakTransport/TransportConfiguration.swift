import Dispatch
import FoundationEssentials
import StreakFraming
import StreakTLS

/// The listening address and the limits of the server transport, each with a safe default.
public struct TransportConfiguration: Sendable {
    /// The address to bind; loopback by default.
    public var host = "127.0.0.1"
    /// The port to bind; 0 binds an ephemeral port.
    public var port = 7411
    /// The largest frame accepted, checked from the length alone.
    public var maxFrameSize = FrameDecoder.defaultMaxFrameSize
    /// Requests in flight (streams included) per connection; more get RESOURCE_EXHAUSTED.
    public var maxInFlightPerConnection = 128
    /// Open connections. At the limit the connection whose last request is oldest among those with
    /// nothing in flight is closed (GOAWAY UNAVAILABLE) to make room; when every connection is busy,
    /// a new one gets GOAWAY RESOURCE_EXHAUSTED and is closed.
    public var maxConnections = 4096
    /// Open connections from one client address; more get GOAWAY RESOURCE_EXHAUSTED (0: no limit
    /// beyond `maxConnections`).
    public var maxConnectionsPerAddress = 0
    /// Time allowed for the client's preface.
    public var handshakeTimeout: Duration = .seconds(10)
    /// A connection with nothing in flight and no request for this long is closed (PINGs do not
    /// count: a connection that only pings does not keep its slot).
    public var idleTimeout: Duration = .seconds(300)
    /// Unsent output above which a connection's reads stop until it drains to half.
    public var maxPendingOutputBytes = 4 * 1024 * 1024
    /// The bytes of requests read from one connection and not answered yet (message, method and
    /// metadata), at or above which reading it stops until they fall to half: a client that
    /// pipelines large requests with small answers holds about this plus one frame.
    public var maxRequestBytesInFlight = 8 * 1024 * 1024
    /// The request bytes in flight all connections may hold together past 64 KiB each (at least
    /// four frames of `maxFrameSize`, and one connection's `maxRequestBytesInFlight` plus a frame);
    /// a request that would pass it gets RESPONSE RESOURCE_EXHAUSTED, and its connection goes on
    /// (`ByteBudget`).
    public var maxRequestBytesInFlightTotal = 256 * 1024 * 1024
    /// The bytes of unfinished frames all connections may hold together past 64 KiB each (at least
    /// four frames of `maxFrameSize`); a connection whose unfinished frame would pass it is closed
    /// with GOAWAY RESOURCE_EXHAUSTED (`ByteBudget`).
    public var maxUnfinishedInputBytes = 256 * 1024 * 1024
    /// The unsent output all connections may hold together past 256 KiB each (at least four times
    /// `maxPendingOutputBytes`): output waiting for clients that do not read. A connection whose
    /// output would pass it gets GOAWAY RESOURCE_EXHAUSTED after its answers, and is closed a
    /// second later, its output dropped, unless its client read everything by then (`ByteBudget`).
    public var maxUnsentOutputBytes = 256 * 1024 * 1024
    /// The per-turn budget of one connection (docs/PROTOCOL.md section 2.2): in one turn of its
    /// event loop a connection reads at most this many bytes from its socket ...
    public var maxReadBytesPerTurn = 256 * 1024
    /// ... and handles at most this many frames; what is left waits for its next turn, after the
    /// other ready connections of the loop had theirs, so one connection's pipelined requests
    /// cannot monopolise the loop.
    public var maxFramesPerTurn = 64
    /// Bytes written to one connection in one turn; the rest waits until the socket reports
    /// writability in a later turn. Unlimited by default: a write already ends where the socket's
    /// send buffer is full, and a smaller budget keeps a fast reader of big answers writable, so
    /// that every turn serves it again (with 256 KiB or 1 MiB, a normal client's GetStreak was
    /// slower while ten connections read 20-year heatmaps; docs/PERFORMANCE-LOG.md, "Hostile neighbours").
    public var maxWriteBytesPerTurn = Int.max
    /// Event loops: each serves its share of the connections on a thread of its own. Half the
    /// active processors by default (at least one): one loop keeps a core busy at about 80k
    /// small requests per second, and the other cores are left to the storage writer, the
    /// Dispatch queues of slower work and the clients. On this project's 2-core machine, with the load
    /// generator on the same cores, one loop served GetHeatmap 15-25 % faster than two, with
    /// p99 1.0-1.5 ms instead of 1.8-2.3 ms (docs/PERFORMANCE-LOG.md, "Connections on event loops").
    public var eventLoops = max(1, ProcessInfo.processInfo.activeProcessorCount / 2)
    /// How long shutdown waits for in-flight requests before closing anyway.
    public var shutdownGracePeriod: Duration = .seconds(10)
    /// TLS: the certificate and key every new connection's session uses (reloadable), or nil to
    /// serve plaintext. The handshake timeout then covers the TLS handshake and the preface.
    public var tls: TLSServerCredentials?
    /// What the handshake and idle timeouts are measured by (tests drive a `ManualClock`).
    public var clock: any MonotonicClock = SystemMonotonicClock()

    /// The defaults.
    public init() {}
}

extension Duration {
    /// The duration in nanoseconds, clamped to zero.
    public var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }
}
