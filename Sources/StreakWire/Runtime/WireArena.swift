internal import CStreakProto
import StreakCore

/// Scratch memory for one encode or decode: a C bump arena (see shim.h) freed in one go when the
/// arena's one owner lets go of it (noncopyable: no copy can outlive or double-free it).
///
/// Encoding builds the whole protoc-c struct tree in it (no per-field heap allocation); decoding hands
/// its bounded allocator to protobuf-c.
struct WireArena: ~Copyable {
    /// The C arena.
    let raw: UnsafeMutablePointer<StreakArena>

    /// Creates an arena that hands out, and takes from malloc, at most `limit` bytes (chunk headers
    /// aside; `firstChunk` should be within `limit`).
    init(limit: Int, firstChunk: Int) {
        guard let raw = streak_arena_create(limit, firstChunk) else {
            fatalError("out of memory creating a \(firstChunk)-byte arena")
        }
        self.raw = raw
    }

    /// Frees every chunk.
    deinit {
        streak_arena_destroy(raw)
    }

    /// The protobuf-c allocator backed by this arena.
    var allocator: UnsafeMutablePointer<ProtobufCAllocator> {
        streak_arena_allocator(raw)
    }

    /// Whether an allocation was refused because of the limit.
    var exceeded: Bool {
        streak_arena_exceeded(raw) != 0
    }

    /// The bytes the arena has taken from malloc for its chunks (their headers aside).
    var reservedBytes: Int {
        streak_arena_reserved(raw)
    }

    /// `byteCount` bytes of uninitialized, 8-byte aligned memory, or nil when the limit is reached.
    func allocate(byteCount: Int) -> UnsafeMutableRawPointer? {
        streak_arena_alloc(raw, byteCount)
    }

    /// Uninitialized memory for `count` values of a C type.
    func allocate<T>(_ type: T.Type, count: Int = 1) -> UnsafeMutablePointer<T> {
        guard let memory = allocate(byteCount: MemoryLayout<T>.stride * count) else {
            fatalError("out of memory encoding a message")
        }
        return memory.bindMemory(to: T.self, capacity: count)
    }

    /// A NUL-terminated copy of `string`; protobuf-c's shared empty string for "" (a proto3 default,
    /// not packed) unless `keepEmpty` (a oneof member, which is packed even when empty).
    func string(_ string: String, keepEmpty: Bool = false) -> UnsafeMutablePointer<CChar> {
        if string.isEmpty && !keepEmpty {
            return streak_empty_string()
        }
        var string = string
        return string.withUTF8 { utf8 in
            let copy = allocate(CChar.self, count: utf8.count + 1)
            if let base = utf8.baseAddress {
                UnsafeMutableRawPointer(copy).copyMemory(from: base, byteCount: utf8.count)
            }
            copy[utf8.count] = 0
            return copy
        }
    }

    /// A `bytes` field.
    func bytes(_ bytes: [UInt8]) -> ProtobufCBinaryData {
        guard !bytes.isEmpty else { return ProtobufCBinaryData(len: 0, data: nil) }
        let copy = allocate(UInt8.self, count: bytes.count)
        bytes.withUnsafeBufferPointer { source in
            copy.initialize(from: source.baseAddress!, count: source.count)
        }
        return ProtobufCBinaryData(len: bytes.count, data: copy)
    }

    /// A `Date` message, or NULL (absent) for nil.
    func date(_ date: CivilDate?) -> UnsafeMutablePointer<Streak__V1__Date>? {
        guard let date else { return nil }
        let c = allocate(Streak__V1__Date.self)
        streak__v1__date__init(c)
        c.pointee.year = Int32(date.year)
        c.pointee.month = Int32(date.month)
        c.pointee.day = Int32(date.day)
        return c
    }

    /// A message field, or NULL (absent) for nil.
    func message<M: CBridgedMessage>(_ message: M?) -> UnsafeMutablePointer<M.CMessage>? {
        message.map { $0.lower(into: self) }
    }

    /// A repeated scalar field: its count and array.
    func scalars<T>(_ values: [T]) -> (Int, UnsafeMutablePointer<T>?) {
        guard !values.isEmpty else { return (0, nil) }
        let array = allocate(T.self, count: values.count)
        values.withUnsafeBufferPointer { source in
            array.initialize(from: source.baseAddress!, count: source.count)
        }
        return (values.count, array)
    }

    /// A repeated string field.
    func strings(_ values: [String]) -> (Int, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) {
        guard !values.isEmpty else { return (0, nil) }
        let array = allocate(UnsafeMutablePointer<CChar>?.self, count: values.count)
        for (index, value) in values.enumerated() {
            (array + index).initialize(to: string(value))
        }
        return (values.count, array)
    }

    /// A repeated `Date` field.
    func dates(_ values: [CivilDate]) -> (Int, UnsafeMutablePointer<UnsafeMutablePointer<Streak__V1__Date>?>?) {
        guard !values.isEmpty else { return (0, nil) }
        let array = allocate(UnsafeMutablePointer<Streak__V1__Date>?.self, count: values.count)
        for (index, value) in values.enumerated() {
            (array + index).initialize(to: date(value))
        }
        return (values.count, array)
    }

    /// A repeated `Weekday` field.
    func weekdays(_ values: [Weekday]) -> (Int, UnsafeMutablePointer<Streak__V1__Weekday>?) {
        guard !values.isEmpty else { return (0, nil) }
        let array = allocate(Streak__V1__Weekday.self, count: values.count)
        for (index, value) in values.enumerated() {
            (array + index).initialize(to: WireLower.weekday(value))
        }
        return (values.count, array)
    }

    /// A repeated message field.
    func messages<M: CBridgedMessage>(
        _ values: [M]
    ) -> (Int, UnsafeMutablePointer<UnsafeMutablePointer<M.CMessage>?>?) {
        guard !values.isEmpty else { return (0, nil) }
        let array = allocate(UnsafeMutablePointer<M.CMessage>?.self, count: values.count)
        for (index, value) in values.enumerated() {
            (array + index).initialize(to: value.lower(into: self))
        }
        return (values.count, array)
    }
}
