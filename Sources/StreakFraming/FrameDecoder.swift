/// Turns bytes from a connection into frames: pure, no sockets.
///
/// Feed bytes with `append`, take frames with `next()` until it returns nil, and call
/// `finish()` at end of stream. The preface (when expected) is checked byte by byte, so a
/// stray HTTP client is refused at its first byte, however the preface is split across
/// appends; a frame's length is checked against the limit as soon as its four bytes are
/// there, before any of its body is buffered. After an error the decoder keeps throwing it
/// and drops whatever is appended: the connection cannot be resynchronised.
public struct FrameDecoder: Sendable {
    /// The default maximum frame size: 4 MiB.
    public static let defaultMaxFrameSize = 4 * 1024 * 1024

    /// The largest `length` accepted.
    public let maxFrameSize: Int
    private var buffer: [UInt8] = []
    private var readIndex = 0
    private var prefaceBytesSeen: Int
    private var failure: FramingError?
    /// A request's method and `authorization` value repeat on every request of a connection.
    private var repeatedParts = RepeatedRequestParts()

    /// Creates a decoder.
    /// - Parameters:
    ///   - maxFrameSize: the largest frame length accepted (the length field's value).
    ///   - expectsPreface: whether the stream starts with the 8-byte preface.
    public init(maxFrameSize: Int = FrameDecoder.defaultMaxFrameSize, expectsPreface: Bool) {
        self.maxFrameSize = maxFrameSize
        self.prefaceBytesSeen = expectsPreface ? 0 : Preface.bytes.count
    }

    /// Whether the whole preface has been received (always true when none is expected).
    public var hasReceivedPreface: Bool { prefaceBytesSeen == Preface.bytes.count }

    /// The bytes received but not yet consumed by a frame.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    /// The bytes the decoder's buffer has room for: what it holds of the connection's memory.
    public var bufferCapacity: Int { buffer.capacity }

    /// Appends bytes received from the peer (dropped after an error: nothing more will decode).
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard failure == nil else { return }
        compactIfWorthwhile()
        buffer.append(contentsOf: bytes)
    }

    /// Appends bytes received from the peer (dropped after an error: nothing more will decode).
    public mutating func append(contentsOf bytes: some Sequence<UInt8>) {
        guard failure == nil else { return }
        compactIfWorthwhile()
        buffer.append(contentsOf: bytes)
    }

    /// The next complete frame, or nil when more bytes are needed.
    /// - Throws: `FramingError` for a bad preface, a length out of bounds, an unknown kind or a malformed body.
    public mutating func next() throws(FramingError) -> Frame? {
        if let failure { throw failure }
        if bufferedByteCount == 0 {
            releaseIfLarge()
            return nil
        }
        do {
            guard let frame = try decodeNext() else {
                releaseIfLarge()
                return nil
            }
            return frame
        } catch {
            failure = error
            throw error
        }
    }

    /// Checks the end of the stream.
    /// - Throws: `FramingError.truncated` when a partial preface or frame is buffered.
    public func finish() throws(FramingError) {
        if let failure { throw failure }
        if prefaceBytesSeen < Preface.bytes.count && (prefaceBytesSeen > 0 || bufferedByteCount > 0) {
            throw FramingError(.truncated, "the stream ended inside the preface")
        }
        if bufferedByteCount > 0 {
            throw FramingError(.truncated, "the stream ended inside a frame (\(bufferedByteCount) bytes buffered)")
        }
    }

    private mutating func decodeNext() throws(FramingError) -> Frame? {
        guard try consumePreface() else { return nil }
        guard bufferedByteCount >= 4 else { return nil }
        let length = Int(readUInt32(at: readIndex))
        guard length <= maxFrameSize else {
            throw FramingError(.frameTooLarge, "frame of \(length) bytes exceeds the limit of \(maxFrameSize) bytes")
        }
        guard length >= 5 else {
            throw FramingError(.frameTooShort, "frame length \(length) is under the minimum of 5")
        }
        guard bufferedByteCount >= 4 + length else { return nil }
        let start = readIndex + 4
        let end = start + length
        readIndex = end
        let kindByte = buffer[start]
        guard let kind = FrameKind(rawValue: kindByte) else {
            throw FramingError(.unknownKind, "unknown frame kind \(kindByte)")
        }
        var reader = FrameBodyReader(bytes: buffer[(start + 5)..<end], kind: kind)
        return try reader.frame(id: readUInt32(at: start + 1), recent: &repeatedParts)
    }

    /// Consumes preface bytes; true once the whole preface has been seen.
    private mutating func consumePreface() throws(FramingError) -> Bool {
        let expected = Preface.bytes
        while prefaceBytesSeen < expected.count {
            guard readIndex < buffer.count else { return false }
            let byte = buffer[readIndex]
            guard byte == expected[prefaceBytesSeen] else {
                throw FramingError(.badPreface, prefaceMessage(mismatchAt: prefaceBytesSeen, byte: byte))
            }
            prefaceBytesSeen += 1
            readIndex += 1
        }
        return true
    }

    private func prefaceMessage(mismatchAt index: Int, byte: UInt8) -> String {
        if index == expectedVersionIndex {
            return "bad preface: protocol version \(byte) is not supported; this side speaks version "
                + "\(Preface.version)"
        }
        // The `index` bytes before the wrong one matched the preface, and may have come in earlier
        // appends that compaction has dropped since: take them from the preface, not the buffer.
        let received = Array(Preface.bytes.prefix(index) + buffer[readIndex..<min(buffer.count, readIndex + 4)])
        if Self.httpStarts.contains(where: { $0.starts(with: received.prefix(4)) }) {
            return "bad preface: this is the Streakd binary protocol, not HTTP; expected \"STREAKD\" version 1"
        }
        return "bad preface: expected \"STREAKD\" version \(Preface.version)"
    }

    /// The first 4 bytes of HTTP/1 requests and of the HTTP/2 preface. A request is refused at its
    /// first byte, which may come alone, so what was received need only start one of them.
    private static let httpStarts = ["GET ", "POST", "PUT ", "HEAD", "PRI ", "HTTP", "OPTI", "DELE"].map {
        Array($0.utf8)
    }

    private var expectedVersionIndex: Int { Preface.bytes.count - 1 }

    private func readUInt32(at index: Int) -> UInt32 {
        UInt32(buffer[index]) << 24 | UInt32(buffer[index + 1]) << 16 | UInt32(buffer[index + 2]) << 8
            | UInt32(buffer[index + 3])
    }

    /// The buffer capacity kept while it holds nothing unread: what a burst of small requests
    /// needs. A larger buffer (grown for a large frame, or a long burst) is given back.
    static let keptCapacity = 256 * 1024

    /// Drops consumed bytes once they are most of the buffer, so appends stay amortised O(1).
    private mutating func compactIfWorthwhile() {
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= Self.keptCapacity)
            readIndex = 0
        } else if readIndex >= 64 * 1024 && readIndex * 2 >= buffer.count {
            buffer.removeSubrange(0..<readIndex)
            readIndex = 0
        }
    }

    /// When `next()` found no complete frame: a buffer over `keptCapacity` is given back at once
    /// if it holds nothing unread, and shrunk to what it holds if that is under a quarter of it
    /// and it is over 1 MiB (the rest of a large frame was read with the start of the next one).
    /// Not at the next `append`: an idle connection appends nothing, and kept a 4 MiB frame's
    /// buffer until it closed. A buffer filling with one frame is at least half full, so it is
    /// never copied on the way; small buffers cost one comparison per call.
    private mutating func releaseIfLarge() {
        guard buffer.capacity > Self.keptCapacity else { return }
        let unread = bufferedByteCount
        if unread == 0 {
            buffer = []
            readIndex = 0
        } else if buffer.capacity > 1024 * 1024 && unread <= buffer.capacity / 4 {
            buffer = Array(buffer[readIndex...])
            readIndex = 0
        }
    }
}
