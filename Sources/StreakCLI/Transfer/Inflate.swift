import CZlib

/// Raw deflate (RFC 1951, as ZIP stores it) through the system's zlib.
enum Inflate {
    /// Why a stream could not be inflated.
    struct Failure: Error {
        var message: String
    }

    /// Inflates `input`, which must hold exactly one deflate stream of `expectedSize` bytes.
    static func raw(_ input: ArraySlice<UInt8>, expectedSize: Int) throws(Failure) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: expectedSize + 1)
        var source = Array(input)
        let outcome: Result<Int, Failure> = source.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                inflate(inBuffer, into: outBuffer)
            }
        }
        let produced = try outcome.get()
        guard produced == expectedSize else {
            throw Failure(message: "it inflates to \(produced) bytes, the archive records \(expectedSize)")
        }
        output.removeLast()
        return output
    }

    private static func inflate(
        _ input: UnsafeMutableBufferPointer<UInt8>,
        into output: UnsafeMutableBufferPointer<UInt8>
    ) -> Result<Int, Failure> {
        var stream = z_stream()
        guard czlib_inflate_init_raw(&stream) == Z_OK else {
            return .failure(Failure(message: "zlib could not start inflating"))
        }
        defer { inflateEnd(&stream) }
        stream.next_in = input.baseAddress
        stream.avail_in = uInt(input.count)
        stream.next_out = output.baseAddress
        stream.avail_out = uInt(output.count)
        while true {
            let status = CZlib.inflate(&stream, Z_NO_FLUSH)
            switch status {
            case Z_STREAM_END:
                return .success(Int(stream.total_out))
            case Z_OK:
                if stream.avail_out == 0 {
                    return .failure(Failure(message: "it inflates to more bytes than the archive records"))
                }
            case Z_BUF_ERROR:
                if stream.avail_out == 0 {
                    return .failure(Failure(message: "it inflates to more bytes than the archive records"))
                }
                return .failure(Failure(message: "its compressed data ends early (truncated)"))
            default:
                let reason = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                return .failure(Failure(message: "its compressed data is corrupt (zlib: \(reason))"))
            }
        }
    }

    /// The CRC-32 of `bytes`, as ZIP records it.
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            UInt32(CZlib.crc32(0, buffer.baseAddress, uInt(buffer.count)))
        }
    }
}
