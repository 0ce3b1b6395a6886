/// A protobuf message of the Streakd protocol (proto/streak/v1), encoded and decoded through
/// protobuf-c. Every `streak.v1.Foo` message is a `WireFoo` value type conforming to this protocol.
public protocol WireMessage: Sendable, Hashable {
    /// Creates a message with every field at its default: absent, zero or empty.
    init()

    /// Decodes a message.
    /// - Parameters:
    ///   - bytes: the protobuf encoding (may be empty: the empty message).
    ///   - limits: the decoder's memory budget.
    /// - Throws: `WireError`: `.malformed` for bytes protobuf-c refuses, `.tooLarge` when decoding would
    ///   exceed `limits`, `.invalidDate` for a date that is not a real day, `.invalidValue` for an unknown
    ///   enum value or a string that is not UTF-8.
    init(serializedBytes bytes: [UInt8], limits: DecodingLimits) throws(WireError)

    /// Decodes a message from raw memory; see `init(serializedBytes:limits:)`.
    init(serializedBytes bytes: UnsafeRawBufferPointer, limits: DecodingLimits) throws(WireError)

    /// The protobuf encoding of the message.
    func serializedBytes() -> [UInt8]

    /// Appends the protobuf encoding of the message to `buffer`.
    func serialize(appendingTo buffer: inout [UInt8])
}

extension WireMessage {
    /// The message's protobuf name, `streak.v1.Foo` for `WireFoo`, as errors name it.
    public static var protobufName: String {
        let name = String(describing: Self.self)
        return "streak.v1." + (name.hasPrefix("Wire") ? name.dropFirst(4) : name[...])
    }

    /// Decodes a message with `DecodingLimits.default`.
    /// - Throws: `WireError`; see `init(serializedBytes:limits:)`.
    public init(serializedBytes bytes: [UInt8]) throws(WireError) {
        try self.init(serializedBytes: bytes, limits: .default)
    }

    /// Decodes a message from raw memory with `DecodingLimits.default`.
    /// - Throws: `WireError`; see `init(serializedBytes:limits:)`.
    public init(serializedBytes bytes: UnsafeRawBufferPointer) throws(WireError) {
        try self.init(serializedBytes: bytes, limits: .default)
    }
}
