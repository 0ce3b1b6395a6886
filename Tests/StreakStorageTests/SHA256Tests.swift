import Foundation
import Testing

@testable import StreakStorage

@Suite("SHA-256")
struct SHA256Tests {
    private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test(
        "FIPS 180-4 test vectors",
        arguments: [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
            (
                String(repeating: "a", count: 1_000_000),
                "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
            ),
        ]
    )
    func vectors(message: String, digest: String) {
        #expect(hex(SHA256.hash(message.utf8)) == digest)
    }

    @Test("agrees with sha256sum on every length across the padding boundaries")
    func agreesWithSha256sum() throws {
        var generator = SystemRandomNumberGenerator()
        for length in [1, 55, 56, 57, 63, 64, 65, 68, 119, 120, 128, 1000] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
            let input = Pipe()
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            input.fileHandleForWriting.write(Data(bytes))
            try input.fileHandleForWriting.close()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(hex(SHA256.hash(bytes)) == String(text.prefix(64)), "length \(length)")
        }
    }

    @Test("digest comparison")
    func comparison() {
        let digest = SHA256.hash("stk_x".utf8)
        #expect(TokenHasher.equal(digest, digest))
        var changed = digest
        changed[31] ^= 1
        #expect(!TokenHasher.equal(digest, changed))
        #expect(!TokenHasher.equal(digest, Array(digest.prefix(31))))
    }
}
