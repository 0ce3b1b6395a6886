internal import CStreakProto

/// Encoding and decoding through protobuf-c, shared by every generated message type.
enum WireCodec {
    /// The encoder's first buffer; larger messages double it.
    static let encodeChunkBytes = 4 * 1024

    /// The protobuf encoding of `message`.
    static func encode<M: CBridgedMessage>(_ message: M) -> [UInt8] {
        var writer = WireWriter(capacity: encodeChunkBytes)
        withUnsafePointer(to: message) { M.write($0, to: &writer) }
        return writer.withBytes { [UInt8]($0) }
    }

    /// Appends the protobuf encoding of `message` to `buffer`.
    static func encode<M: CBridgedMessage>(_ message: M, appendingTo buffer: inout [UInt8]) {
        var writer = WireWriter(capacity: encodeChunkBytes)
        withUnsafePointer(to: message) { M.write($0, to: &writer) }
        writer.withBytes { buffer.append(contentsOf: $0) }
    }

    /// The encoding by protobuf-c's own `protobuf_c_message_pack`, which the tests compare with `encode`.
    static func referenceEncode<M: CBridgedMessage>(_ message: M) -> [UInt8] {
        let arena = WireArena(limit: .max, firstChunk: encodeChunkBytes)
        defer { arena.destroy() }
        let base = packable(message.lower(into: arena))
        let size = protobuf_c_message_get_packed_size(base)
        return [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            if size > 0 {
                initialized = protobuf_c_message_pack(base, buffer.baseAddress!)
            }
        }
    }

    /// Decodes a message from an array.
    static func decode<M: CBridgedMessage>(_ bytes: [UInt8], limits: DecodingLimits) throws(WireError) -> M {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(WireError) -> M in try decode(raw, limits: limits) }
        }
        return try result.get()
    }

    /// Decodes a message from raw memory with a bounded arena: protobuf-c allocates from it, a refused
    /// allocation fails the unpack cleanly, and the whole arena is freed at once afterwards.
    static func decode<M: CBridgedMessage>(
        _ bytes: UnsafeRawBufferPointer,
        limits: DecodingLimits
    ) throws(WireError) -> M {
        let limit = max(0, limits.maxAllocationBytes)
        // Unpacked structs are a few times larger than their encoding; start there, within the budget.
        let firstChunk = min(limit, max(512, bytes.count * 4))
        let arena = WireArena(limit: limit, firstChunk: firstChunk)
        defer { arena.destroy() }
        let unpacked: UnsafeMutablePointer<M.CMessage>? = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1) {
            empty in
            let data = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(empty.baseAddress!)
            return M.unpack(arena.allocator, bytes.count, data)
        }
        guard let unpacked else {
            if arena.exceeded {
                throw WireError(
                    .tooLarge,
                    "decoding \(bytes.count) bytes as \(M.self) needs more than \(limit) bytes of memory"
                )
            }
            throw WireError(.malformed, "\(bytes.count) bytes are not a valid \(M.self) message")
        }
        return try M(lifting: unpacked)
    }

    /// The `ProtobufCMessage` at the start of every protoc-c struct.
    private static func packable<T>(_ message: UnsafeMutablePointer<T>) -> UnsafePointer<ProtobufCMessage> {
        UnsafeRawPointer(message).assumingMemoryBound(to: ProtobufCMessage.self)
    }
}
