/// Bearer tokens: generated from the system's secure generator, stored only as SHA-256.
public enum TokenHasher {
    /// The prefix of every token, so a leaked one is recognisable.
    static let prefix = "stk_"

    /// A new token: "stk_" and 64 lowercase hex digits (256 random bits).
    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for _ in 0..<4 { withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) } }
        return prefix + hex(bytes)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `bytes` as lowercase hex digits, two per byte.
    static func hex(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(hexDigits[Int(byte >> 4)])
            text.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Whether `token` has the shape of a token: "stk_" and 64 lowercase hex digits. Anything
    /// else can be refused without asking the store (and without remembering it).
    public static func isWellFormed(_ token: String) -> Bool {
        // One pass over the bytes: it runs on every authenticated request.
        let utf8 = token.utf8
        guard utf8.count == 68 else { return false }
        var index = 0
        for byte in utf8 {
            if index < 4 {
                guard byte == prefixBytes[index] else { return false }
            } else if !((0x30...0x39).contains(byte) || (0x61...0x66).contains(byte)) {
                return false
            }
            index += 1
        }
        return true
    }

    private static let prefixBytes = Array(prefix.utf8)

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
