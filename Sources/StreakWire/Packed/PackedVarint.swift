/// The varints inside the compact encodings (`PackedHeatmap`'s runs and exceptions, `HabitDays`'s
/// day deltas): protobuf's base-128 varints, low group first, limited to 32 bits: at most five
/// bytes, the fifth at most 0x0F (docs/PROTOCOL.md section 9.1).
public enum PackedVarint {
    /// Appends `value` in the fewest bytes.
    public static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// The zig-zag form of a signed value: 0, -1, 1, -2, ... become 0, 1, 2, 3, ...
    public static func zigZag(_ value: Int32) -> UInt32 {
        UInt32(bitPattern: (value << 1) ^ (value >> 31))
    }

    /// The signed value of a zig-zag form.
    public static func unZigZag(_ value: UInt32) -> Int32 {
        Int32(bitPattern: value >> 1) ^ -Int32(bitPattern: value & 1)
    }
}

/// Reads varints from a byte array, front to back.
public struct PackedVarintReader: Sendable {
    private let bytes: [UInt8]
    /// The offset of the next byte to read.
    public private(set) var offset = 0

    /// A reader at the start of `bytes`.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether every byte was read.
    public var isAtEnd: Bool { offset == bytes.count }

    /// The next varint.
    /// - Throws: `PackedVarintError` when the bytes end inside it or it is overlong (more than five
    ///   bytes, or a value of 2^32 or more).
    public mutating func next() throws(PackedVarintError) -> UInt32 {
        let start = offset
        var value: UInt32 = 0
        for index in 0..<5 {
            guard offset < bytes.count else { throw .truncated(at: start) }
            let byte = bytes[offset]
            offset += 1
            if index == 4 && byte > 0x0F { throw .overlong(at: start) }
            value |= UInt32(byte & 0x7F) << (7 * UInt32(index))
            if byte & 0x80 == 0 { return value }
        }
        throw .overlong(at: start)
    }
}

/// A varint that cannot be read.
public enum PackedVarintError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The bytes end inside the varint that starts at this offset.
    case truncated(at: Int)
    /// The varint at this offset has more than five bytes or does not fit 32 bits.
    case overlong(at: Int)

    /// E.g. "overlong varint at byte 12".
    public var description: String {
        switch self {
        case .truncated(let offset): "truncated varint at byte \(offset)"
        case .overlong(let offset): "overlong varint at byte \(offset)"
        }
    }
}
