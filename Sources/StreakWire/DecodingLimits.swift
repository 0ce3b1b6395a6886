/// Bounds on what decoding one message may cost.
public struct DecodingLimits: Hashable, Sendable {
    /// The most bytes protobuf-c may allocate while unpacking one message (the C structs, arrays and
    /// strings; counted cumulatively, 8-byte rounded). It bounds the memory really taken too: the
    /// arena's chunks never add up to more, so the unused end of a full chunk counts against it. A
    /// message that needs more fails with `WireError.Code.tooLarge` (RESOURCE_EXHAUSTED).
    public var maxAllocationBytes: Int

    /// 16 MiB: enough for any message that fits a default 4 MiB frame, whose unpacked form is at most a
    /// few times its encoded size (a 2-byte repeated `Date` unpacks to a 40-byte struct and a pointer).
    public static let `default` = DecodingLimits(maxAllocationBytes: 16 * 1024 * 1024)

    /// Creates limits.
    /// - Parameter maxAllocationBytes: the allocation budget per decoded message; negative counts as 0.
    public init(maxAllocationBytes: Int) {
        self.maxAllocationBytes = maxAllocationBytes
    }
}
