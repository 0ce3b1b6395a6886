/// Bounds on what decoding one message may cost.
public struct DecodingLimits: Hashable, Sendable {
    /// The most bytes protobuf-c may allocate while unpacking one message (the C structs, arrays and
    /// strings; counted cumulatively, 8-byte rounded). It bounds the memory really taken too: the
    /// arena's chunks never add up to more, so the unused end of a full chunk counts against it. A
    /// message that needs more fails with `WireError.Code.tooLarge` (RESOURCE_EXHAUSTED).
    public var maxAllocationBytes: Int

    /// 16 MiB. Not enough for every message that fits a 4 MiB frame: unpacked, a message can be
    /// twenty times its encoded size (a 2-byte repeated `Date` unpacks to a 40-byte struct and a
    /// pointer). A request gets about 120,000 dates within it (docs/PROTOCOL.md), and the server's
    /// data limits keep every answer within it (`ScheduleLimit` has the arithmetic).
    public static let `default` = DecodingLimits(maxAllocationBytes: 16 * 1024 * 1024)

    /// Creates limits.
    /// - Parameter maxAllocationBytes: the allocation budget per decoded message; negative counts as 0.
    public init(maxAllocationBytes: Int) {
        self.maxAllocationBytes = maxAllocationBytes
    }
}
