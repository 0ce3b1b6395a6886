import StreakWire

extension WireMessage {
    /// A message built by setting fields on an empty one.
    static func with(_ body: (inout Self) throws -> Void) rethrows -> Self {
        var message = Self()
        try body(&message)
        return message
    }
}
