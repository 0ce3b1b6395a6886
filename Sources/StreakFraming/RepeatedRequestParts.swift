/// What one connection's requests repeat: the method names and the `authorization` value come
/// again in every request, and a frame that repeats one gets the same `String` (and the same
/// metadata array) back instead of new allocations (a cached read allocated three strings and an
/// array per request).
///
/// Strings of up to 15 UTF-8 bytes are stored inside the `String` value itself and are not kept,
/// nor are strings over 256 bytes or metadata of more than four entries: what a connection keeps
/// stays under a few KiB whatever its requests carried, and is two references (16 bytes) before
/// its first request. A string is reused only when its bytes are exactly the frame's, and an array
/// only when every entry is equal, so the result is the same as decoding them again.
struct RepeatedRequestParts: Sendable {
    /// Strings of at most this many bytes allocate nothing: not worth keeping.
    static let inlineLimit = 15
    /// Longer strings are not kept.
    static let keptLengthLimit = 256
    /// Strings kept at most, and metadata entries.
    static let capacity = 4

    /// The kept strings, oldest first.
    private var strings: [String] = []
    /// The last request's metadata (set through `remember(metadata:)`).
    private(set) var metadata: [MetadataEntry] = []

    /// A kept string whose UTF-8 bytes are exactly `utf8`, if any.
    func string(matching utf8: UnsafeBufferPointer<UInt8>) -> String? {
        guard utf8.count > Self.inlineLimit else { return nil }
        for candidate in strings where candidate.utf8.count == utf8.count {
            let equal = candidate.utf8.withContiguousStorageIfAvailable { Self.sameBytes($0, utf8) }
            if equal == true { return candidate }
        }
        return nil
    }

    /// Whether two buffers of the same length hold the same bytes, compared eight at a time
    /// (the generic `elementsEqual` compared one byte per iteration: 2.4 % of the event loop's
    /// time under durable writes).
    static func sameBytes(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        guard left.count == right.count else { return false }
        let left = UnsafeRawBufferPointer(left)
        let right = UnsafeRawBufferPointer(right)
        var offset = 0
        while offset + 8 <= left.count {
            let word = left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            guard word == right.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else { return false }
            offset += 8
        }
        while offset < left.count {
            guard left[offset] == right[offset] else { return false }
            offset += 1
        }
        return true
    }

    /// Keeps `string` (when it is long enough to be worth it and short enough to be cheap),
    /// dropping the oldest kept one when full.
    mutating func remember(_ string: String) {
        guard string.utf8.count > Self.inlineLimit, string.utf8.count <= Self.keptLengthLimit else { return }
        if strings.count == Self.capacity { strings.removeFirst() }
        strings.append(string)
    }

    /// Keeps `entries` as the last request's metadata when they are few and short, else keeps none.
    mutating func remember(metadata entries: [MetadataEntry]) {
        let small =
            entries.count <= Self.capacity
            && entries.allSatisfy { $0.key.utf8.count + $0.value.utf8.count <= Self.keptLengthLimit }
        metadata = small ? entries : []
    }
}
