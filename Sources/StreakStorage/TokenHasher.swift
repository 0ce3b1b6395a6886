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
        isWellFormed(token[...])
    }

    /// Whether `token` has the shape of a token (see the `String` form).
    public static func isWellFormed(_ token: Substring) -> Bool {
        // It runs on every authenticated request: over the string's own bytes when they are
        // contiguous (a token read off the wire always is), else over a copy.
        var token = token
        return token.withUTF8 { bytes in
            guard bytes.count == 68, bytes[0] == 0x73, bytes[1] == 0x74, bytes[2] == 0x6B, bytes[3] == 0x5F else {
                return false  // "stk_"
            }
            var index = 4
            while index < 68 {
                let byte = bytes[index]
                // 0-9 and a-f.
                guard (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) else { return false }
                index += 1
            }
            return true
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
