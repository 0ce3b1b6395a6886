import StreakFraming
import StreakPOSIX

#if canImport(Glibc)
import Glibc
#endif

/// A failure of the load generator: a message for the person running the benchmark.
struct LoadError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }

    /// An error for a failed system call, with its errno text.
    static func system(_ call: String) -> LoadError {
        LoadError("\(call) failed: \(String(cString: strerror(errno)))")
    }
}

/// A blocking connection to streakd, owned by one worker thread.
///
/// The load generator keeps its own cost low so that the server gets the machine: request
/// frames are encoded once as templates and only their request id is patched per send.
final class LoadConnection {
    private let descriptor: Int32
    private var decoder = FrameDecoder(expectsPreface: true)
    private var readBuffer = [UInt8](repeating: 0, count: 256 * 1024)

    /// Connects to `address` and sends the preface.
    init(address: ServerEndpoint) throws(LoadError) {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw .system("socket") }
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = in_port_t(UInt16(address.port).bigEndian)
        guard inet_pton(AF_INET, address.host, &socketAddress.sin_addr) == 1 else {
            close(descriptor)
            throw LoadError("not an IPv4 address: \(address.host)")
        }
        let connected = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let error = LoadError.system("connect to \(address)")
            close(descriptor)
            throw error
        }
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        try send(Preface.bytes)
    }

    deinit {
        close(descriptor)
    }

    /// Writes all of `bytes`.
    func send(_ bytes: [UInt8]) throws(LoadError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                let bytes = $0
                return retryingOnInterrupt {
                    Glibc.send(descriptor, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                }
            }
            if written < 0 { throw .system("send") }
            offset += written
        }
    }

    /// The next frame from the server, blocking until one is complete.
    func nextFrame() throws(LoadError) -> Frame {
        while true {
            do {
                if let frame = try decoder.next() { return frame }
            } catch {
                throw LoadError("bad frame from the server: \(error)")
            }
            let count = readBuffer.withUnsafeMutableBytes { buffer in
                retryingOnInterrupt { recv(descriptor, buffer.baseAddress, buffer.count, 0) }
            }
            if count < 0 { throw .system("recv") }
            if count == 0 { throw LoadError("the server closed the connection") }
            readBuffer.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
    }

    // MARK: - Non-blocking use, for the measuring event loop

    /// The socket, for poll(2).
    var fileDescriptor: Int32 { descriptor }

    /// Switches the socket to non-blocking: `receiveAvailable` and `sendSome` never wait.
    func makeNonBlocking() {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    /// Reads what the socket holds into the decoder. - Throws: when the server closed or reset it.
    func receiveAvailable() throws(LoadError) {
        while true {
            let count = readBuffer.withUnsafeMutableBytes { buffer in
                retryingOnInterrupt { recv(descriptor, buffer.baseAddress, buffer.count, 0) }
            }
            if count > 0 {
                readBuffer.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                if count < readBuffer.count { return }
            } else if count == 0 {
                throw LoadError("the server closed the connection")
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                return
            } else {
                throw .system("recv")
            }
        }
    }

    /// The next frame already received, if any.
    func bufferedFrame() throws(LoadError) -> Frame? {
        do {
            return try decoder.next()
        } catch {
            throw LoadError("bad frame from the server: \(error)")
        }
    }

    /// Sends as much of `bytes[offset...]` as the socket takes. - Returns: the new offset.
    func sendSome(_ bytes: [UInt8], from offset: Int) throws(LoadError) -> Int {
        var offset = offset
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                let bytes = $0
                return retryingOnInterrupt {
                    Glibc.send(descriptor, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                }
            }
            if written > 0 {
                offset += written
            } else if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                break
            } else {
                throw .system("send")
            }
        }
        return offset
    }

    /// Sends one request and waits for its response; for set-up, not for measuring.
    func call(_ template: RequestTemplate, id: UInt32) throws(LoadError) -> [UInt8] {
        try send(template.frame(id: id))
        while true {
            switch try nextFrame() {
            case .response(let responseID, let status, let message) where responseID == id:
                guard status.code == .ok else {
                    throw LoadError("\(template.method) failed: \(status)")
                }
                return message
            case .goAway(_, let status):
                throw LoadError("the server sent GOAWAY: \(status)")
            default:
                continue
            }
        }
    }
}

/// A host and port, parsed from `HOST:PORT`.
struct ServerEndpoint: CustomStringConvertible, Sendable {
    var host: String
    var port: Int

    init(parsing text: String) throws(LoadError) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (1...65535).contains(port)
        else { throw LoadError("expected HOST:PORT, got \(text)") }
        host = String(text[..<colon])
        self.port = port
    }

    var description: String { "\(host):\(port)" }
}
