internal import CStreakProto

/// A message with a protoc-c struct: how to build that struct (encoding) and read it (decoding).
/// Implemented by the generated `Wire*` types.
protocol CBridgedMessage: WireMessage {
    /// The protoc-c struct, e.g. `Streak__V1__Habit`; its first member is a `ProtobufCMessage`.
    associatedtype CMessage

    /// The generated `*__unpack` function.
    static func unpack(
        _ allocator: UnsafeMutablePointer<ProtobufCAllocator>,
        _ count: Int,
        _ data: UnsafePointer<UInt8>
    ) -> UnsafeMutablePointer<CMessage>?

    /// Builds the C struct (and everything it points to) in `arena`.
    func lower(into arena: borrowing WireArena) -> UnsafeMutablePointer<CMessage>

    /// Copies an unpacked C struct out, validating dates, enums and strings.
    init(lifting message: UnsafePointer<CMessage>) throws(WireError)
}
