public import StreakWire

/// The messages of a server-streaming call, in order. Iteration ends (returns nil) when the
/// server ends the stream with OK, and throws `StreakClientError` when it ends with another
/// status or the connection breaks. Dropping the iterator or cancelling its task sends CANCEL.
public struct StreakResponseStream<Element: WireMessage>: AsyncSequence, Sendable {
    /// The error iteration throws.
    public typealias Failure = StreakClientError

    let results: AsyncStream<CallResult>

    /// Creates the iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: results.makeAsyncIterator())
    }

    /// Iterates the stream's messages.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncStream<CallResult>.Iterator

        /// The next message, nil at the end of the stream.
        /// - Throws: `StreakClientError` for a non-OK end or an undecodable message.
        public mutating func next() async throws(StreakClientError) -> Element? {
            try Self.decode(await base.next())
        }

        /// The next message, nil at the end of the stream.
        /// - Throws: `StreakClientError` for a non-OK end or an undecodable message.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(StreakClientError) -> Element? {
            try Self.decode(await base.next(isolation: actor))
        }

        private static func decode(_ result: CallResult?) throws(StreakClientError) -> Element? {
            guard let result else { return nil }
            let bytes = try result.get()
            do {
                return try Element(serializedBytes: bytes)
            } catch {
                throw StreakClientError(.internal, "cannot decode a stream message: \(error.message)")
            }
        }
    }
}
