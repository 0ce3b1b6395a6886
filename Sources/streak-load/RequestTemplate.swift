import StreakFraming

/// A request frame encoded once; `frame(id:)` patches only the request id.
struct RequestTemplate: Sendable {
    /// The method path, for error messages.
    let method: String
    private let bytes: [UInt8]

    /// The offset of the request id: after the 4-byte length and the kind byte.
    private static let idOffset = 5

    init(method: String, token: String, message: [UInt8]) {
        self.method = method
        let metadata = [MetadataEntry(key: MetadataEntry.authorizationKey, value: "Bearer \(token)")]
        bytes = FrameEncoder.encode(.request(id: 1, method: method, metadata: metadata, message: message))
    }

    /// The frame with `id` as its request id.
    func frame(id: UInt32) -> [UInt8] {
        var frame = bytes
        appendFrame(id: id, to: &frame, replacing: true)
        return frame
    }

    /// Appends the frame with `id` to `buffer` (or patches it in place when `replacing`).
    func appendFrame(id: UInt32, to buffer: inout [UInt8], replacing: Bool = false) {
        let start: Int
        if replacing {
            start = 0
        } else {
            start = buffer.count
            buffer.append(contentsOf: bytes)
        }
        let offset = start + Self.idOffset
        buffer[offset] = UInt8(truncatingIfNeeded: id >> 24)
        buffer[offset + 1] = UInt8(truncatingIfNeeded: id >> 16)
        buffer[offset + 2] = UInt8(truncatingIfNeeded: id >> 8)
        buffer[offset + 3] = UInt8(truncatingIfNeeded: id)
    }
}
