import StreakCore

/// The tests' reference protobuf encoder, written from the protobuf encoding rules alone (StreakWire
/// itself encodes with protobuf-c's `protobuf_c_message_pack`; `PackerTests` compares the two byte
/// for byte). It writes back to front: a message's fields in reverse order, a nested message before
/// its length and tag, so every length is known when it is written. Each message's `write(_:to:)` is
/// generated into Generated/WireReferenceWriters.swift by scripts/generate-wire-swift.py.
struct WireWriter: ~Copyable {
    /// The buffer; the encoding so far is `base[position..<capacity]`.
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var position: Int

    /// Creates a writer with room for `capacity` bytes before it grows.
    init(capacity: Int = 1024) {
        self.capacity = max(capacity, 16)
        self.base = .allocate(capacity: self.capacity)
        self.position = self.capacity
    }

    deinit {
        base.deallocate()
    }

    /// The number of bytes written so far.
    var count: Int { capacity - position }

    /// The bytes written, front to back.
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        body(UnsafeBufferPointer(start: base + position, count: count))
    }

    @inline(__always)
    private mutating func reserve(_ bytes: Int) {
        if position < bytes { grow(bytes) }
    }

    private mutating func grow(_ bytes: Int) {
        let used = count
        var newCapacity = capacity * 2
        while newCapacity - used < bytes { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        (newBase + newCapacity - used).update(from: base + position, count: used)
        base.deallocate()
        base = newBase
        capacity = newCapacity
        position = newCapacity - used
    }

    /// Prepends a varint.
    @inline(__always)
    mutating func varint(_ value: UInt64) {
        reserve(10)
        if value < 0x80 {
            position -= 1
            base[position] = UInt8(value)
            return
        }
        let size = WireWriter.varintSize(value)
        position -= size
        var value = value
        var index = position
        while value >= 0x80 {
            base[index] = UInt8(truncatingIfNeeded: value) | 0x80
            value >>= 7
            index += 1
        }
        base[index] = UInt8(value)
    }

    /// The encoded size of a varint.
    @inline(__always)
    static func varintSize(_ value: UInt64) -> Int {
        // 1 + floor(log2(value) / 7), with 0 taking one byte.
        let bits = 64 - (value | 1).leadingZeroBitCount
        return (bits + 6) / 7
    }

    /// Prepends a field key.
    @inline(__always)
    mutating func tag(_ number: UInt32, _ wireType: UInt32) {
        varint(UInt64(number << 3 | wireType))
    }

    /// Prepends raw bytes.
    mutating func raw(_ bytes: UnsafeBufferPointer<UInt8>) {
        reserve(bytes.count)
        position -= bytes.count
        if let source = bytes.baseAddress {
            (base + position).update(from: source, count: bytes.count)
        }
    }

    // MARK: fields (each prepends value, then length where needed, then key)

    /// An int32 or enum field: negative values take ten bytes, as in every protobuf implementation.
    @inline(__always)
    mutating func int32(_ number: UInt32, _ value: Int32) {
        varint(UInt64(bitPattern: Int64(value)))
        tag(number, 0)
    }

    /// An int64 field.
    @inline(__always)
    mutating func int64(_ number: UInt32, _ value: Int64) {
        varint(UInt64(bitPattern: value))
        tag(number, 0)
    }

    /// A uint32 field.
    @inline(__always)
    mutating func uint32(_ number: UInt32, _ value: UInt32) {
        varint(UInt64(value))
        tag(number, 0)
    }

    /// A uint64 field.
    @inline(__always)
    mutating func uint64(_ number: UInt32, _ value: UInt64) {
        varint(value)
        tag(number, 0)
    }

    /// A bool field.
    @inline(__always)
    mutating func bool(_ number: UInt32, _ value: Bool) {
        varint(value ? 1 : 0)
        tag(number, 0)
    }

    /// A string field (written even when empty).
    mutating func string(_ number: UInt32, _ value: borrowing String) {
        let written = value.utf8.withContiguousStorageIfAvailable { utf8 in
            raw(utf8)
            return utf8.count
        }
        if let written {
            varint(UInt64(written))
        } else {
            let bytes = Array((copy value).utf8)
            bytes.withUnsafeBufferPointer { raw($0) }
            varint(UInt64(bytes.count))
        }
        tag(number, 2)
    }

    /// A bytes field (written even when empty).
    mutating func bytes(_ number: UInt32, _ value: [UInt8]) {
        value.withUnsafeBufferPointer { raw($0) }
        varint(UInt64(value.count))
        tag(number, 2)
    }

    /// A `Date` message field. A `CivilDate` has year 1...9999, month 1...12 and day 1...31, so the
    /// message is `08 yy[yy] 10 mm 18 dd` (at most 7 bytes, one length byte).
    mutating func date(_ number: UInt32, _ date: CivilDate) {
        reserve(8)
        var index = position
        index -= 1
        base[index] = UInt8(truncatingIfNeeded: date.day)
        index -= 1
        base[index] = 0x18
        index -= 1
        base[index] = UInt8(truncatingIfNeeded: date.month)
        index -= 1
        base[index] = 0x10
        let year = UInt16(truncatingIfNeeded: date.year)
        if year < 0x80 {
            index -= 1
            base[index] = UInt8(year)
        } else {
            index -= 2
            base[index] = UInt8(truncatingIfNeeded: year) | 0x80
            base[index + 1] = UInt8(truncatingIfNeeded: year >> 7)
        }
        index -= 1
        base[index] = 0x08
        index -= 1
        base[index] = UInt8(position - index - 1)
        position = index
        tag(number, 2)
    }

    /// A message field.
    mutating func message<M: ReferenceWritable>(_ number: UInt32, _ message: M) {
        let end = count
        withUnsafePointer(to: message) { M.write($0, to: &self) }
        varint(UInt64(count - end))
        tag(number, 2)
    }

    /// A repeated message field, last element first, each read in place.
    mutating func messages<M: ReferenceWritable>(_ number: UInt32, _ messages: [M]) {
        messages.withUnsafeBufferPointer { elements in
            guard let first = elements.baseAddress else { return }
            var index = elements.count
            while index > 0 {
                index -= 1
                let end = count
                M.write(first + index, to: &self)
                varint(UInt64(count - end))
                tag(number, 2)
            }
        }
    }

    /// A packed repeated `Weekday` field (enum values are varints).
    mutating func packedWeekdays(_ number: UInt32, _ values: [Weekday]) {
        let end = count
        for value in values.reversed() {
            varint(UInt64(value.rawValue))
        }
        varint(UInt64(count - end))
        tag(number, 2)
    }

    /// A packed repeated int64 field.
    mutating func packedInt64(_ number: UInt32, _ values: [Int64]) {
        let end = count
        for value in values.reversed() {
            varint(UInt64(bitPattern: value))
        }
        varint(UInt64(count - end))
        tag(number, 2)
    }
}

/// A message the reference encoder can write (every generated `Wire*` type).
protocol ReferenceWritable {
    /// Prepends the fields of the message at `m` (not its own key or length) to `writer`, last field
    /// first. A pointer rather than `self` so that repeated elements are read in place, not copied.
    static func write(_ m: UnsafePointer<Self>, to writer: inout WireWriter)
}

/// The reference encoder's bytes for a message.
func referenceEncode<M: ReferenceWritable>(_ message: M) -> [UInt8] {
    var writer = WireWriter(capacity: 4096)
    withUnsafePointer(to: message) { M.write($0, to: &writer) }
    return writer.withBytes { [UInt8]($0) }
}
