extension WireGetHeatmapResponse {
    /// `response`, the encoding of a classic GetHeatmap answer, with its column `weekIndex`
    /// replaced by `week`: what a server that changed one day of a cached answer sends instead of
    /// encoding all its columns again.
    ///
    /// The column is encoded by protobuf-c like every message; around it, the answer's bytes are
    /// kept and only the two length prefixes that hold the column (the `heatmap` field's and the
    /// column's own) are written again, in the fewest bytes as protobuf-c writes them. Each column
    /// is its own length-delimited `weeks` entry, and protobuf-c encodes a message the same way
    /// alone as inside another, so the result is byte for byte the encoding of the answer with
    /// that column changed.
    /// - Returns: nil when `response` is not such an encoding (a `heatmap` field and nothing else,
    ///   whose own fields are framed well: their contents are not read), or has no column
    ///   `weekIndex`.
    public static func replacingWeek(_ weekIndex: Int, with week: WireHeatmapWeek, in response: [UInt8]) -> [UInt8]? {
        guard weekIndex >= 0 else { return nil }
        var reader = FieldReader(response, from: 0, to: response.count)
        guard let outer = reader.next(), outer.key == Self.heatmapKey, reader.isAtEnd else { return nil }
        var fields = FieldReader(response, from: outer.value.lowerBound, to: outer.value.upperBound)
        var seen = 0
        while let field = fields.next() {
            guard field.key == Self.weeksKey else { continue }
            guard seen == weekIndex else {
                seen += 1
                continue
            }
            guard fields.isWellFormedToEnd() else { return nil }
            return spliced(response, outer: outer.value, replacing: field.whole, with: week.serializedBytes())
        }
        return nil
    }

    /// `Heatmap heatmap = 1` of GetHeatmapResponse and `repeated HeatmapWeek weeks = 4` of
    /// Heatmap, as keys: field number * 8 + 2 (length-delimited).
    private static let heatmapKey: UInt64 = 1 << 3 | 2
    private static let weeksKey: UInt64 = 4 << 3 | 2

    /// The answer with the bytes `old` (a whole `weeks` entry inside the heatmap field's value
    /// `outer`) replaced by an entry holding `week`.
    private static func spliced(
        _ response: [UInt8],
        outer: Range<Int>,
        replacing old: Range<Int>,
        with week: [UInt8]
    ) -> [UInt8] {
        var entry: [UInt8] = [UInt8(truncatingIfNeeded: weeksKey)]
        PackedVarint.append(UInt32(week.count), to: &entry)
        let bodyCount = outer.count - old.count + entry.count + week.count
        var bytes: [UInt8] = [UInt8(truncatingIfNeeded: heatmapKey)]
        bytes.reserveCapacity(bodyCount + 6)
        PackedVarint.append(UInt32(bodyCount), to: &bytes)
        bytes.append(contentsOf: response[outer.lowerBound..<old.lowerBound])
        bytes.append(contentsOf: entry)
        bytes.append(contentsOf: week)
        bytes.append(contentsOf: response[old.upperBound..<outer.upperBound])
        return bytes
    }
}

/// Walks the fields of one protobuf message, front to back, without decoding them.
private struct FieldReader {
    /// One field: its key (number * 8 + wire type), all its bytes, and its value's bytes.
    struct Field {
        var key: UInt64
        var whole: Range<Int>
        var value: Range<Int>
    }

    private let bytes: [UInt8]
    private var offset: Int
    private let end: Int
    /// Set when a field could not be read: nothing more is returned.
    private(set) var failed = false

    init(_ bytes: [UInt8], from start: Int, to end: Int) {
        self.bytes = bytes
        offset = start
        self.end = end
    }

    /// Whether every byte was read, and read well.
    var isAtEnd: Bool { !failed && offset == end }

    /// Reads the remaining fields: whether they are all well formed.
    mutating func isWellFormedToEnd() -> Bool {
        while next() != nil {}
        return isAtEnd
    }

    /// The next field; nil at the end or at bytes that are not a field (then `failed`).
    mutating func next() -> Field? {
        guard !failed, offset < end else { return nil }
        let start = offset
        guard let key = varint(), key >> 3 != 0 else { return fail() }
        let valueStart: Int
        switch key & 7 {
        case 0:
            valueStart = offset
            guard varint() != nil else { return fail() }
        case 1, 5:
            valueStart = offset
            let size = key & 7 == 1 ? 8 : 4
            guard end - offset >= size else { return fail() }
            offset += size
        case 2:
            guard let length = varint(), length <= UInt64(end - offset) else { return fail() }
            valueStart = offset
            offset += Int(length)
        default:
            return fail()
        }
        return Field(key: key, whole: start..<offset, value: valueStart..<offset)
    }

    private mutating func fail() -> Field? {
        failed = true
        return nil
    }

    /// A base-128 varint of at most ten bytes that fits 64 bits.
    private mutating func varint() -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while offset < end && shift < 64 {
            let byte = bytes[offset]
            offset += 1
            // The tenth byte holds the 64th bit only.
            if shift == 63 && byte > 1 { return nil }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        return nil
    }
}
