/// The last few long strings one connection's frames carried: its method names and its
/// `authorization` value come again in every request, and a frame that repeats one gets the same
/// `String` back instead of a new allocation (a cached read allocated three strings per request).
///
/// Strings of up to 15 UTF-8 bytes are stored inside the `String` value itself and are not kept.
/// A string is reused only when its bytes are exactly the frame's, so the result is the same as
/// decoding them again.
struct RecentStrings: Sendable {
    /// Strings of at most this many bytes allocate nothing: not worth keeping.
    static let inlineLimit = 15

    private let capacity: Int
    private var strings: [String] = []
    private var oldest = 0

    /// - Parameter capacity: strings kept at most; 0 keeps none.
    init(capacity: Int) {
        self.capacity = capacity
    }

    /// A kept string whose UTF-8 bytes are exactly `utf8`, if any.
    func string(matching utf8: UnsafeBufferPointer<UInt8>) -> String? {
        guard utf8.count > Self.inlineLimit else { return nil }
        for candidate in strings where candidate.utf8.count == utf8.count {
            let equal = candidate.utf8.withContiguousStorageIfAvailable { $0.elementsEqual(utf8) }
            if equal == true { return candidate }
        }
        return nil
    }

    /// Keeps `string` (when it is long enough to be worth it), replacing the oldest kept one when full.
    mutating func remember(_ string: String) {
        guard capacity > 0, string.utf8.count > Self.inlineLimit else { return }
        if strings.count < capacity {
            strings.append(string)
        } else {
            strings[oldest] = string
            oldest = (oldest + 1) % capacity
        }
    }
}
