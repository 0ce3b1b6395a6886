internal import CStreakProto

/// Encoding and decoding through protobuf-c, shared by every generated message type.
enum WireCodec {
    /// The encoder's first buffer; larger messages double it.
    static let encodeChunkBytes = 4 * 1024

    /// The protobuf encoding of `message`, by protobuf-c's `protobuf_c_message_pack`: the message is
    /// lowered into protoc-c structs in one arena, sized, and packed straight into the array.
    static func encode<M: CBridgedMessage>(_ message: M) -> [UInt8] {
        let arena = WireArena(limit: .max, firstChunk: encodeChunkBytes)
        let base = packable(message.lower(into: arena))
        let size = protobuf_c_message_get_packed_size(base)
        guard size > 0 else { return [] }
        // Packed straight into uninitialised memory: zero-filling a new array first (through a
        // generic `Repeated`) costs about a microsecond a byte in a debug build, which a client
        // sending large requests (and its tests) felt.
        return withExtendedLifetime(arena) {
            [UInt8](unsafeUninitializedCapacity: size) { bytes, count in
                count = protobuf_c_message_pack(base, bytes.baseAddress!)
            }
        }
    }

    /// Appends the protobuf encoding of `message` (by protobuf-c) to `buffer`.
    static func encode<M: CBridgedMessage>(_ message: M, appendingTo buffer: inout [UInt8]) {
        let arena = WireArena(limit: .max, firstChunk: encodeChunkBytes)
        let base = packable(message.lower(into: arena))
        let size = protobuf_c_message_get_packed_size(base)
        guard size > 0 else { return }
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: size))
        buffer.withUnsafeMutableBufferPointer { bytes in
            _ = protobuf_c_message_pack(base, bytes.baseAddress! + start)
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
        let unpacked: UnsafeMutablePointer<M.CMessage>? = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1) {
            empty in
            let data = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(empty.baseAddress!)
            return M.unpack(arena.allocator, bytes.count, data)
        }
        guard let unpacked else {
            if arena.exceeded {
                throw WireError(
                    .tooLarge,
                    "decoding \(bytes.count) bytes as \(M.protobufName) needs more than \(limit) bytes of memory"
                )
            }
            throw WireError(.malformed, "\(bytes.count) bytes are not a valid \(M.protobufName) message")
        }
        // protobuf-c keeps strings NUL-terminated: "a\0b" would arrive as "a". Refuse it instead.
        let descriptor = UnsafeRawPointer(unpacked).assumingMemoryBound(to: ProtobufCMessage.self).pointee.descriptor
        if let base = bytes.baseAddress,
            let field = streak_find_nul_string(descriptor, base.assumingMemoryBound(to: UInt8.self), bytes.count, 0)
        {
            throw WireError(.invalidValue, "\(String(cString: field)): a string may not contain U+0000")
        }
        return try M(lifting: unpacked)
    }

    /// The `ProtobufCMessage` at the start of every protoc-c struct.
    private static func packable<T>(_ message: UnsafeMutablePointer<T>) -> UnsafePointer<ProtobufCMessage> {
        UnsafeRawPointer(message).assumingMemoryBound(to: ProtobufCMessage.self)
    }
}
