import Foundation
import StreakCLI
import Testing

@Suite("ZIP reader")
struct ZipReaderTests {
    static let text = Array(String(repeating: "2024-05-01,YES_MANUAL,\n", count: 200).utf8)

    static func archive() -> [UInt8] {
        var zip = TestZip()
        zip.add("Habits.csv", text, method: .stored)
        zip.add("001 Run/Checkmarks.csv", text, method: .deflated)
        zip.add("002 Read/Checkmarks.csv", text, method: .deflated, dataDescriptor: true)
        zip.add("empty.csv", [], method: .deflated)
        return zip.bytes
    }

    @Test func readsStoredAndDeflatedEntries() throws {
        let zip = try ZipReader(bytes: Self.archive(), name: "a.zip")
        #expect(
            zip.entries.map(\.path) == ["Habits.csv", "001 Run/Checkmarks.csv", "002 Read/Checkmarks.csv", "empty.csv"]
        )
        #expect(zip.entries.map(\.method) == [0, 8, 8, 8])
        #expect(zip.entries[1].compressedSize < Self.text.count)
        for entry in zip.entries.prefix(3) {
            #expect(try zip.contents(of: entry) == Self.text)
        }
        #expect(try zip.contents(ofPath: "empty.csv") == [])
        #expect(try zip.contents(ofPath: "missing.csv") == nil)
    }

    @Test func anEmptyArchiveHasNoEntries() throws {
        #expect(try ZipReader(bytes: TestZip().bytes, name: "a.zip").entries.isEmpty)
    }

    struct Bad: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        /// Read this entry when the directory reads.
        var entry: String?
        var message: String
        var testDescription: String { name }
    }

    static var bad: [Bad] {
        let whole = archive()
        let zip = try! ZipReader(bytes: whole, name: "a.zip")
        let deflated = zip.entries[1]
        // The data of "001 Run/Checkmarks.csv" follows its 30-byte header and name.
        let dataStart =
            Int(zip.entries[0].compressedSize) + 30 + "Habits.csv".utf8.count + 30 + deflated.path.utf8.count
        var flipped = whole
        flipped[dataStart + 5] ^= 0xFF
        var garbled = whole
        for index in dataStart..<dataStart + deflated.compressedSize { garbled[index] = 0xFF }
        var badCRC = whole
        // The stored entry's data starts after its header and name; change one letter.
        badCRC[30 + "Habits.csv".utf8.count] = UInt8(ascii: "3")
        return [
            Bad(
                name: "not a zip",
                bytes: Array("Position,Name\n".utf8),
                message: "a.zip: is not a ZIP archive (it does not start with PK); give Loop's \"Loop Habits CSV\" "
                    + ".zip or its folder"
            ),
            Bad(
                name: "empty file",
                bytes: [],
                message: "a.zip: is not a ZIP archive (it does not start with PK); "
                    + "give Loop's \"Loop Habits CSV\" .zip or its folder"
            ),
            Bad(
                name: "cut in the middle",
                bytes: Array(whole.prefix(whole.count / 2)),
                message: "a.zip: is truncated or corrupt: it has no end-of-central-directory record"
            ),
            Bad(
                name: "last byte missing",
                bytes: Array(whole.dropLast()),
                message: "a.zip: is truncated or corrupt: it has no end-of-central-directory record"
            ),
            Bad(
                name: "deflated data garbled",
                bytes: garbled,
                entry: "001 Run/Checkmarks.csv",
                message: "a.zip: 001 Run/Checkmarks.csv: its compressed data is corrupt (zlib: invalid block type)"
            ),
            Bad(
                name: "stored data changed",
                bytes: badCRC,
                entry: "Habits.csv",
                message: "a.zip: Habits.csv: the archive is corrupt: the data's CRC-32 is "
                    + "\(hex(crc(Array("3".utf8) + text.dropFirst()))), the archive records \(hex(crc(text)))"
            ),
            Bad(
                name: "one deflated byte flipped",
                bytes: flipped,
                entry: "001 Run/Checkmarks.csv",
                message: "<any>"
            ),
        ]
    }

    static func crc(_ bytes: [UInt8]) -> UInt32 {
        var zip = TestZip()
        zip.add("x", bytes, method: .stored)
        return try! ZipReader(bytes: zip.bytes, name: "x").entries[0].crc32
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }

    @Test(arguments: bad)
    func refuses(_ example: Bad) throws {
        do {
            let zip = try ZipReader(bytes: example.bytes, name: "a.zip")
            let entry = try #require(example.entry.flatMap { zip.entry($0) })
            _ = try zip.contents(of: entry)
            Issue.record("read \(example.name) without an error")
        } catch {
            if example.message == "<any>" {
                // A flipped bit is caught by zlib or, failing that, by the CRC-32 or size check.
                #expect("\(error)".hasPrefix("a.zip: 001 Run/Checkmarks.csv: "))
            } else {
                #expect("\(error)" == example.message)
            }
        }
    }

    @Test func everyTruncationIsAnError() {
        let whole = Self.archive()
        for length in stride(from: 0, to: whole.count, by: 7) {
            #expect(throws: ImportError.self) {
                let zip = try ZipReader(bytes: Array(whole.prefix(length)), name: "a.zip")
                for entry in zip.entries { _ = try zip.contents(of: entry) }
            }
        }
    }

    /// An archive written by Info-ZIP's `zip` (scripts/ensure-deps.sh installs it), not by our builder.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/zip")))
    func readsWhatZipWrites() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("zip-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("001 Run"),
            withIntermediateDirectories: true
        )
        try Data(Self.text).write(to: folder.appendingPathComponent("001 Run/Checkmarks.csv"))
        try Data("tiny\n".utf8).write(to: folder.appendingPathComponent("Habits.csv"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/zip")
        process.currentDirectoryURL = folder
        process.arguments = ["-q", "-r", "out.zip", "Habits.csv", "001 Run"]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent("out.zip")))
        let zip = try ZipReader(bytes: bytes, name: "out.zip")
        #expect(Set(zip.entries.map(\.path)) == ["Habits.csv", "001 Run/Checkmarks.csv"])
        #expect(try zip.contents(ofPath: "001 Run/Checkmarks.csv") == Self.text)
        #expect(try zip.contents(ofPath: "Habits.csv") == Array("tiny\n".utf8))
    }
}
