import StreakWire

/// What a cached response depends on besides the user's data: the method, the request bytes,
/// and "today" (requests without `as_of` mean today in the user's time zone).
struct ResponseKey: Hashable, Sendable {
    var method: WireMethod
    var todayDayNumber: Int
    var message: [UInt8]

    /// Hashes the request bytes as one block (`[UInt8]`'s own hashing feeds the hasher a byte at
    /// a time: 0.75 % of the mix's samples). Equality stays the synthesized one.
    func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(todayDayNumber)
        hasher.combine(requestBytes: message)
    }
}

extension Hasher {
    /// Feeds the hasher `bytes` as one block, after their count.
    mutating func combine(requestBytes bytes: [UInt8]) {
        combine(bytes.count)
        bytes.withUnsafeBytes { combine(bytes: $0) }
    }
}
