import CZlib

/// Builds ZIP archives in memory for the reader's tests: entries stored or deflated (raw deflate
/// through zlib), with local headers, a central directory and its end record, as APPNOTE has them.
struct TestZip {
    enum Method {
        case stored, deflated
    }

    private var body: [UInt8] = []
    private var directory: [UInt8] = []
    private var count = 0

    /// Adds a file. `dataDescriptor` writes its sizes and CRC after the data and zeros in the local
    /// header, as Java's ZipOutputStream (Loop's) does.
    mutating func add(_ path: String, _ contents: [UInt8], method: Method = .deflated, dataDescriptor: Bool = false) {
        let name = Array(path.utf8)
        let data = method == .stored ? contents : Self.deflate(contents)
        let crc = contents.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
        let methodCode: UInt16 = method == .stored ? 0 : 8
        let flags: UInt16 = 0x800 | (dataDescriptor ? 0x8 : 0)
        let offset = UInt32(body.count)

        body += Self.u32(0x0403_4b50) + Self.u16(20) + Self.u16(flags) + Self.u16(methodCode)
        body += Self.u16(0) + Self.u16(0x58A1)  // 2024-05-01 00:00
        if dataDescriptor {
            body += Self.u32(0) + Self.u32(0) + Self.u32(0)
        } else {
            body += Self.u32(crc) + Self.u32(UInt32(data.count)) + Self.u32(UInt32(contents.count))
        }
        body += Self.u16(UInt16(name.count)) + Self.u16(0) + name + data
        if dataDescriptor {
            body +=
                Self.u32(0x0807_4b50) + Self.u32(crc) + Self.u32(UInt32(data.count)) + Self.u32(UInt32(contents.count))
        }

        directory += Self.u32(0x0201_4b50) + Self.u16(20) + Self.u16(20) + Self.u16(flags) + Self.u16(methodCode)
        directory += Self.u16(0) + Self.u16(0x58A1)
        directory += Self.u32(crc) + Self.u32(UInt32(data.count)) + Self.u32(UInt32(contents.count))
        directory += Self.u16(UInt16(name.count)) + Self.u16(0) + Self.u16(0) + Self.u16(0) + Self.u16(0)
        directory += Self.u32(0) + Self.u32(offset) + name
        count += 1
    }

    mutating func add(_ path: String, _ text: String, method: Method = .deflated) {
        add(path, Array(text.utf8), method: method)
    }

    /// The archive's bytes.
    var bytes: [UInt8] {
        let end =
            Self.u32(0x0605_4b50) + Self.u16(0) + Self.u16(0) + Self.u16(UInt16(count)) + Self.u16(UInt16(count))
            + Self.u32(UInt32(directory.count)) + Self.u32(UInt32(body.count)) + Self.u16(0)
        return body + directory + end
    }

    static func u16(_ value: UInt16) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8)]
    }

    static func u32(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)]
    }

    /// Raw deflate at the default level.
    static func deflate(_ input: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        precondition(czlib_deflate_init_raw(&stream, Z_DEFAULT_COMPRESSION) == Z_OK)
        defer { deflateEnd(&stream) }
        var source = input
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 16)
        let produced = source.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                precondition(CZlib.deflate(&stream, Z_FINISH) == Z_STREAM_END)
                return Int(stream.total_out)
            }
        }
        return Array(output.prefix(produced))
    }
}
