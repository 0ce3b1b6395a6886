/// The SHA-256 of a bearer token as four words: a fixed-size key that does not hold the token,
/// for remembering tokens that were refused.
public struct TokenDigest: Hashable, Sendable {
    private let words: (UInt64, UInt64, UInt64, UInt64)

    /// The digest of `token`'s UTF-8 bytes.
    public init(token: String) {
        let bytes = TokenHasher.hash(token)
        func word(_ index: Int) -> UInt64 {
            bytes[index * 8..<index * 8 + 8].reduce(0) { $0 << 8 | UInt64($1) }
        }
        words = (word(0), word(1), word(2), word(3))
    }

    public static func == (lhs: TokenDigest, rhs: TokenDigest) -> Bool {
        lhs.words == rhs.words
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }
}
