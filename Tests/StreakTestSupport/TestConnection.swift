import Foundation
import StreakFraming
import StreakWire

#if canImport(Glibc)
import Glibc
#endif

/// A small synchronous connection for integration tests: a blocking socket, the frame
/// codec and the wire messages. Not thread-safe; one per test task.
public final class TestConnection: @unchecked Sendable {
    /// The socket descriptor.
    public let descriptor: Int32
    /// The TLS session, for a connection made with `tls`.
    public let tls: TestTLSSocket?
    private var decoder: FrameDecoder
    private var nextID: UInt32 = 1
    private var pending: [Frame] = []
    private var closed = false
    /// The `last_request_id` of the GOAWAY the server sent, once one arrived.
    public private(set) var goAwayLastID: UInt32?

    /// Connects to 127.0.0.1:`port`, sends the preface and, when `exchangePreface`, reads the server's.
    /// - Parameters:
    ///   - timeout: the receive timeout of every read.
    ///   - receiveBuffer: a small socket receive buffer (bytes), set before connecting, for
    ///     clients that must look slow to the server.
    ///   - tls: TLS, trusting this CA file and checking this server name; nil for plaintext.
    public init(
        port: Int,
        timeout: Duration = .seconds(20),
        exchangePreface: Bool = true,
        receiveBuffer: Int? = nil,
        tls: (caFile: String, serverName: String)? = nil
    ) throws {
        let descriptor = try TestSocket.connect(port: port, timeout: timeout, receiveBuffer: receiveBuffer)
        self.descriptor = descriptor
        do {
            self.tls = try tls.map {
                try TestTLSSocket(descriptor: descriptor, caFile: $0.caFile, serverName: $0.serverName)
            }
        } catch {
            Glibc.close(descriptor)
            throw error
        }
        decoder = FrameDecoder(expectsPreface: false)
        if exchangePreface {
            try sendRaw(Preface.bytes)
            try readPreface()
        }
    }

    /// Reads the server's preface (after connecting with `exchangePreface: false`).
    public func readPreface() throws {
        let answer = try readExactly(Preface.bytes.count)
        guard answer == Preface.bytes else {
            throw TestSupportError("unexpected server preface \(answer)")
        }
    }

    /// Every frame until the server closes the connection (or a read times out).
    public func framesUntilClose() -> [Frame] {
        var frames: [Frame] = []
        while let frame = try? readFrame() { frames.append(frame) }
        return frames
    }

    deinit { close() }

    /// Closes the socket.
    public func close() {
        if !closed {
            closed = true
            Glibc.close(descriptor)
        }
    }

    /// A fresh request id.
    public func makeRequestID() -> UInt32 {
        defer { nextID &+= 1 }
        return nextID
    }

    /// Writes bytes as they are.
    public func sendRaw(_ bytes: [UInt8]) throws {
        if let tls {
            try tls.send(bytes)
        } else {
            try TestSocket.sendAll(descriptor, bytes)
        }
    }

    /// Half-closes: nothing more will be sent (with TLS, a close_notify goes first).
    public func finishSending() throws {
        if let tls { try tls.closeNotify() }
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Plaintext (decrypted with TLS) into `buffer`; 0 at end of stream.
    public func receiveRaw(_ buffer: inout [UInt8]) throws -> Int {
        if let tls { return try tls.receive(&buffer) }
        return try TestSocket.receive(descriptor, &buffer)
    }

    /// Encodes and writes one frame.
    public func send(_ frame: Frame) throws {
        try sendRaw(FrameEncoder.encode(frame))
    }

    /// Sends a request frame and returns its id.
    @discardableResult
    public func sendRequest(
        _ method: String,
        message: [UInt8],
        token: String?,
        metadata: [MetadataEntry] = [],
        id: UInt32? = nil
    ) throws -> UInt32 {
        let requestID = id ?? makeRequestID()
        var entries = metadata
        if let token { entries.append(MetadataEntry(key: MetadataEntry.authorizationKey, value: "Bearer \(token)")) }
        try send(.request(id: requestID, method: method, metadata: entries, message: message))
        return requestID
    }

    /// The next frame from the server, or nil at end of stream.
    public func readFrame() throws -> Frame? {
        if !pending.isEmpty { return pending.removeFirst() }
        return try readFrameFromSocket()
    }

    /// Reads frames until the one that ends request `id` (a RESPONSE), keeping the others for later.
    public func awaitResponse(_ id: UInt32) throws -> (status: Status, message: [UInt8]) {
        if let index = pending.firstIndex(where: { $0.isResponse(to: id) }),
            case .response(_, let status, let message) = pending.remove(at: index)
        {
            return (status, message)
        }
        if let last = goAwayLastID, last < id {
            return (Status(.unavailable, "not answered: the server sent GOAWAY with last id \(last)"), [])
        }
        while let frame = try readFrameFromSocket() {
            if case .response(let frameID, let status, let message) = frame, frameID == id {
                return (status, message)
            }
            pending.append(frame)
            if case .goAway(let last, let status) = frame, last < id {
                return (status, [])
            }
        }
        throw TestSupportError("connection closed before the response to request \(id)")
    }

    /// One unary call with raw message bytes.
    public func rawCall(
        _ method: String,
        message: [UInt8] = [],
        token: String?,
        metadata: [MetadataEntry] = []
    ) throws -> (status: Status, message: [UInt8]) {
        let id = try sendRequest(method, message: message, token: token, metadata: metadata)
        return try awaitResponse(id)
    }

    /// One typed unary call.
    /// - Throws: `CallFailure` with the status when it is not OK.
    public func call<Response: WireMessage>(
        _ method: WireMethod,
        _ request: some WireMessage,
        token: String?,
        as type: Response.Type = Response.self
    ) throws -> Response {
        let (status, bytes) = try rawCall(method.rawValue, message: request.serializedBytes(), token: token)
        guard status.code == .ok else { throw CallFailure(status: status) }
        return try Response(serializedBytes: bytes)
    }

    /// The status of a call that is expected to fail (OK when it succeeded).
    public func status(
        of method: WireMethod,
        _ request: some WireMessage,
        token: String?
    ) throws -> Status {
        try rawCall(method.rawValue, message: request.serializedBytes(), token: token).status
    }

    private func readFrameFromSocket() throws -> Frame? {
        while true {
            do {
                if let frame = try decoder.next() {
                    if case .goAway(let last, _) = frame { goAwayLastID = last }
                    return frame
                }
            } catch {
                throw TestSupportError("undecodable frame from the server: \(error)")
            }
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            let count = try receiveRaw(&buffer)
            if count == 0 { return nil }
            decoder.append(contentsOf: buffer[0..<count])
        }
    }

    private func readExactly(_ count: Int) throws -> [UInt8] {
        var result: [UInt8] = []
        while result.count < count {
            var buffer = [UInt8](repeating: 0, count: count - result.count)
            let received = try receiveRaw(&buffer)
            if received == 0 { throw TestSupportError("connection closed during the preface") }
            result += buffer[0..<received]
        }
        return result
    }
}

/// A call that ended with a status other than OK.
public struct CallFailure: Error, CustomStringConvertible {
    /// The status the server sent.
    public var status: Status
    /// Creates a failure.
    public init(status: Status) { self.status = status }
    /// The status the call ended with.
    public var description: String { "call failed: \(status)" }
}

extension Frame {
    func isResponse(to id: UInt32) -> Bool {
        if case .response(let frameID, _, _) = self { return frameID == id }
        return false
    }
}
