/// Bearer tokens: generated from the system's secure generator, stored only as SHA-256.
public enum TokenHasher {
    /// The prefix of every token, so a leaked one is recognisable.
    static let prefix = "stk_"

    /// A new token: "stk_" and 64 lowercase hex digits (256 random bits).
    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        for _ in 0..<4 { withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) } }
        return prefix + bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    /// Whether `token` has the shape of a token: "stk_" and 64 lowercase hex digits. Anything
    /// else can be refused without asking the store (and without remembering it).
    public static func isWellFormed(_ token: String) -> Bool {
        token.utf8.count == prefix.utf8.count + 64 && token.hasPrefix(prefix)
            && token.utf8.dropFirst(prefix.utf8.count).allSatisfy {
                (0x30...0x39).contains($0) || (0x61...0x66).contains($0)
            }
    }

    /// SHA-256 of the token's UTF-8 bytes.
    static func hash(_ token: String) -> [UInt8] { SHA256.hash(token.utf8) }

    /// Compares two digests in time that does not depend on where they differ.
    static func equal(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
