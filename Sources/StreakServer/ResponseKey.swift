import StreakWire

/// What a cached response depends on besides the user's data: the method, the request bytes,
/// and "today" (requests without `as_of` mean today in the user's time zone).
struct ResponseKey: Hashable, Sendable {
    var method: WireMethod
    var todayDayNumber: Int
    var message: [UInt8]
}
