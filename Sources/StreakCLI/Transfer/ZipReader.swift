/// A small reader of ZIP archives (PKWARE's APPNOTE): the central directory, and entries that
/// are stored or deflated (methods 0 and 8), checked against their CRC-32 and size. Enough for
/// the archives phones and `zip` write; not ZIP64, encryption, or archives split over disks.
///
/// Errors name the archive (`name`) and, for one entry's trouble, the entry.
public struct ZipReader: Sendable {
    /// One file in the archive.
    public struct Entry: Hashable, Sendable {
        /// Its path inside the archive, `/`-separated.
        public var path: String
        /// 0 stored, 8 deflated.
        public var method: Int
        /// The CRC-32 the archive records.
        public var crc32: UInt32
        /// Its size as stored.
        public var compressedSize: Int
        /// Its size once inflated.
        public var size: Int
        /// Where its local header starts.
        var localHeaderOffset: Int
        /// Bit 0: encrypted.
        var flags: Int
    }

    /// The archive's name, for errors.
    public let name: String
    /// The files, in the central directory's order (folders left out).
    public let entries: [Entry]
    private let bytes: [UInt8]

    /// The largest entry this reader inflates (a Loop export is a few megabytes).
    public static let maximumEntrySize = 256 << 20

    /// Reads the central directory of `bytes`.
    /// - Throws: `ImportError` for bytes that are not a ZIP archive, or a truncated or corrupt one.
    public init(bytes: [UInt8], name: String) throws(ImportError) {
        self.name = name
        self.bytes = bytes
        entries = try Self.centralDirectory(bytes, name: name)
    }

    /// The entry at `path`, if the archive has one.
    public func entry(_ path: String) -> Entry? {
        entries.first { $0.path == path }
    }

    /// The bytes of `entry`, inflated and checked.
    public func contents(of entry: Entry) throws(ImportError) -> [UInt8] {
        func failure(_ message: String) -> ImportError {
            ImportError(file: name, field: entry.path, message: message)
        }
        if entry.flags & 1 != 0 {
            throw failure("is encrypted; export it again from Loop without a password")
        }
        guard entry.size <= Self.maximumEntrySize else {
            throw failure(
                "is \(entry.size) bytes once inflated, more than the \(Self.maximumEntrySize) this reader takes"
            )
        }
        let header = entry.localHeaderOffset
        guard header + 30 <= bytes.count else {
            throw failure("the archive is truncated: this entry's header lies past its end")
        }
        guard Self.uint32(bytes, header) == 0x0403_4b50 else {
            throw failure("the archive is corrupt: this entry's local header has no signature")
        }
        let dataStart = header + 30 + Self.uint16(bytes, header + 26) + Self.uint16(bytes, header + 28)
        guard dataStart + entry.compressedSize <= bytes.count else {
            throw failure("the archive is truncated: this entry's data runs past its end")
        }
        let data = bytes[dataStart..<dataStart + entry.compressedSize]
        let contents: [UInt8]
        switch entry.method {
        case 0:
            guard entry.compressedSize == entry.size else {
                throw failure(
                    "the archive is corrupt: a stored entry of \(entry.compressedSize) bytes records \(entry.size)"
                )
            }
            contents = Array(data)
        case 8:
            do {
                contents = try Inflate.raw(data, expectedSize: entry.size)
            } catch {
                throw failure(error.message)
            }
        default:
            throw failure("uses compression method \(entry.method); this reader takes stored (0) and deflate (8)")
        }
        let crc = Inflate.crc32(contents[...])
        guard crc == entry.crc32 else {
            throw failure(
                "the archive is corrupt: the data's CRC-32 is \(Self.hex(crc)), the archive records \(Self.hex(entry.crc32))"
            )
        }
        return contents
    }

    /// The bytes of the entry at `path`, or nil when the archive has none.
    public func contents(ofPath path: String) throws(ImportError) -> [UInt8]? {
        guard let entry = entry(path) else { return nil }
        return try contents(of: entry)
    }

    private static func centralDirectory(_ bytes: [UInt8], name: String) throws(ImportError) -> [Entry] {
        func failure(_ message: String) -> ImportError {
            ImportError(file: name, message: message)
        }
        guard bytes.count >= 4, uint32(bytes, 0) == 0x0403_4b50 || uint32(bytes, 0) == 0x0605_4b50 else {
            throw failure(
                "is not a ZIP archive (it does not start with PK); give Loop's \"Loop Habits CSV\" .zip or its folder"
            )
        }
        guard let end = endOfCentralDirectory(bytes) else {
            throw failure("is truncated or corrupt: it has no end-of-central-directory record")
        }
        if uint16(bytes, end + 4) != 0 || uint16(bytes, end + 6) != 0 {
            throw failure("is one part of an archive split over several files; this reader takes whole archives")
        }
        let count = uint16(bytes, end + 10)
        let size = uint32(bytes, end + 12)
        let offset = uint32(bytes, end + 16)
        if count == 0xFFFF || size == 0xFFFF_FFFF || offset == 0xFFFF_FFFF {
            throw failure("is a ZIP64 archive; this reader takes archives under 4 GiB with fewer than 65,535 entries")
        }
        guard Int(offset) + Int(size) <= end else {
            throw failure(
                "is truncated or corrupt: its central directory (\(size) bytes at offset \(offset)) runs past "
                    + "where it should end (offset \(end))"
            )
        }
        var entries: [Entry] = []
        var position = Int(offset)
        for index in 0..<count {
            guard position + 46 <= end, uint32(bytes, position) == 0x0201_4b50 else {
                throw failure("is corrupt: entry \(index + 1) of its central directory has no signature")
            }
            let nameLength = uint16(bytes, position + 28)
            let extraLength = uint16(bytes, position + 30)
            let commentLength = uint16(bytes, position + 32)
            let next = position + 46 + nameLength + extraLength + commentLength
            guard next <= end else {
                throw failure("is corrupt: entry \(index + 1) of its central directory runs past its end")
            }
            let flags = uint16(bytes, position + 8)
            let rawName = bytes[position + 46..<position + 46 + nameLength]
            let path = decodeName(rawName).replacingBackslashes()
            let entry = Entry(
                path: path,
                method: uint16(bytes, position + 10),
                crc32: uint32(bytes, position + 16),
                compressedSize: Int(uint32(bytes, position + 20)),
                size: Int(uint32(bytes, position + 24)),
                localHeaderOffset: Int(uint32(bytes, position + 42)),
                flags: flags
            )
            if !path.hasSuffix("/") { entries.append(entry) }
            position = next
        }
        return entries
    }

    /// The offset of the end-of-central-directory record: the last signature whose comment
    /// length reaches exactly to the end of the file.
    private static func endOfCentralDirectory(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 22 else { return nil }
        let lowest = max(0, bytes.count - 22 - 0xFFFF)
        var candidate = bytes.count - 22
        while candidate >= lowest {
            if uint32(bytes, candidate) == 0x0605_4b50, candidate + 22 + uint16(bytes, candidate + 20) == bytes.count {
                return candidate
            }
            candidate -= 1
        }
        return nil
    }

    /// UTF-8 when the bytes are (whether or not the entry's flag 11 says so); else Latin-1, which
    /// keeps the ASCII half of code page 437 (Loop's folder names are ASCII).
    private static func decodeName(_ raw: ArraySlice<UInt8>) -> String {
        if let text = String(validating: raw, as: UTF8.self) { return text }
        return String(String.UnicodeScalarView(raw.map { Unicode.Scalar($0) }))
    }

    static func uint16(_ bytes: [UInt8], _ offset: Int) -> Int {
        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
    }

    static func uint32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            | UInt32(bytes[offset + 3]) << 24
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: false)
        return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}

extension String {
    /// Backslashes as slashes: some Windows tools write them in ZIP paths.
    fileprivate func replacingBackslashes() -> String {
        String(map { $0 == "\\" ? "/" : $0 })
    }
}
