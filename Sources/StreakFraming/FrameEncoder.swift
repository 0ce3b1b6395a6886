/// Encodes frames into bytes, exactly as docs/PROTOCOL.md section 2 lays them out.
///
/// Strings longer than their length field allows are cut at the last whole UTF-8 character
/// that fits (65,535 bytes for messages and values, 255 for keys), and at most 255 metadata
/// entries are written, and a RESPONSE whose status is not OK is written without its message
/// bytes, so every encoded frame is one `FrameDecoder` accepts (given a maximum frame size
/// that admits its length). What cannot be repaired is a programming error and traps: a
/// REQUEST with id 0, and a metadata key that is not printable ASCII.
public enum FrameEncoder {
    /// Appends `frame` to `buffer`.
    /// - Precondition: a REQUEST's id is greater than 0 and its metadata keys are printable ASCII.
    public static func encode(_ frame: Frame, into buffer: inout [UInt8]) {
        let start = buffer.count
        // One allocation for the frame instead of one per growth while it is appended.
        buffer.reserveCapacity(start + sizeEstimate(frame))
        appendUInt32(0, &buffer)
        switch frame {
        case .request(let id, let method, let metadata, let message):
            precondition(id > 0, "a REQUEST's id must be greater than 0")
            header(.request, id, &buffer)
            appendString(method, maxBytes: 0xFFFF, wideLength: true, &buffer)
            let entries = metadata.prefix(255)
            buffer.append(UInt8(entries.count))
            for entry in entries {
                precondition(
                    entry.key.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F },
                    "metadata keys must be printable ASCII"
                )
                appendString(entry.key, maxBytes: 0xFF, wideLength: false, &buffer)
                appendString(entry.value, maxBytes: 0xFFFF, wideLength: true, &buffer)
            }
            buffer.append(contentsOf: message)
        case .response(let id, let status, let message):
            header(.response, id, &buffer)
            appendStatus(status, &buffer)
            if status.code == .ok { buffer.append(contentsOf: message) }
        case .streamMessage(let id, let message):
            header(.streamMessage, id, &buffer)
            buffer.append(contentsOf: message)
        case .endStream(let id, let status):
            header(.endStream, id, &buffer)
            appendStatus(status, &buffer)
        case .cancel(let id):
            header(.cancel, id, &buffer)
        case .ping(let payload):
            header(.ping, 0, &buffer)
            appendUInt64(payload, &buffer)
        case .pong(let payload):
            header(.pong, 0, &buffer)
            appendUInt64(payload, &buffer)
        case .goAway(let lastRequestID, let status):
            header(.goAway, 0, &buffer)
            appendUInt32(lastRequestID, &buffer)
            appendStatus(status, &buffer)
        }
        let length = UInt32(buffer.count - start - 4)
        buffer[start] = UInt8(truncatingIfNeeded: length >> 24)
        buffer[start + 1] = UInt8(truncatingIfNeeded: length >> 16)
        buffer[start + 2] = UInt8(truncatingIfNeeded: length >> 8)
        buffer[start + 3] = UInt8(truncatingIfNeeded: length)
    }

    /// The bytes of `frame`.
    /// - Precondition: a REQUEST's id is greater than 0 and its metadata keys are printable ASCII.
    public static func encode(_ frame: Frame) -> [UInt8] {
        var buffer: [UInt8] = []
        encode(frame, into: &buffer)
        return buffer
    }

    /// The encoded size of the frames answers are made of (exact unless a string is cut), and a
    /// small guess for the others.
    private static func sizeEstimate(_ frame: Frame) -> Int {
        switch frame {
        case .response(_, let status, let message):
            12 + status.message.utf8.count + (status.code == .ok ? message.count : 0)
        case .streamMessage(_, let message): 9 + message.count
        case .endStream(_, let status): 12 + status.message.utf8.count
        default: 64
        }
    }

    private static func header(_ kind: FrameKind, _ id: UInt32, _ buffer: inout [UInt8]) {
        buffer.append(kind.rawValue)
        appendUInt32(id, &buffer)
    }

    private static func appendStatus(_ status: Status, _ buffer: inout [UInt8]) {
        buffer.append(status.code.rawValue)
        appendString(status.message, maxBytes: 0xFFFF, wideLength: true, &buffer)
    }

    private static func appendString(_ string: String, maxBytes: Int, wideLength: Bool, _ buffer: inout [UInt8]) {
        var utf8 = string.utf8[...]
        if utf8.count > maxBytes {
            var end = utf8.index(utf8.startIndex, offsetBy: maxBytes)
            // Never split a character.
            while end > utf8.startIndex && utf8[end] & 0xC0 == 0x80 { end = utf8.index(before: end) }
            utf8 = utf8[..<end]
        }
        let count = utf8.count
        if wideLength { buffer.append(UInt8(count >> 8)) }
        buffer.append(UInt8(count & 0xFF))
        buffer.append(contentsOf: utf8)
    }

    private static func appendUInt32(_ value: UInt32, _ buffer: inout [UInt8]) {
        buffer.append(UInt8(truncatingIfNeeded: value >> 24))
        buffer.append(UInt8(truncatingIfNeeded: value >> 16))
        buffer.append(UInt8(truncatingIfNeeded: value >> 8))
        buffer.append(UInt8(truncatingIfNeeded: value))
    }

    private static func appendUInt64(_ value: UInt64, _ buffer: inout [UInt8]) {
        appendUInt32(UInt32(truncatingIfNeeded: value >> 32), &buffer)
        appendUInt32(UInt32(truncatingIfNeeded: value), &buffer)
    }
}
