import StreakClient
import StreakFraming
import StreakPOSIX
import StreakTLS

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

/// TLS for the load generator's connections: one context for all of them.
struct LoadTLS: @unchecked Sendable {
    let context: TLSContext
    /// The name (or address) the server's certificate must be for.
    let serverName: String
}

/// A blocking connection to streakd, owned by one worker thread.
///
/// The load generator keeps its own cost low so that the server gets the machine: request
/// frames are encoded once as templates and only their request id is patched per send. With
/// TLS a session over memory buffers sits between the frames and the socket (the same shim as
/// the server's), so the non-blocking loop stays non-blocking.
final class LoadConnection {
    private let descriptor: Int32
    private var decoder = FrameDecoder(expectsPreface: true)
    private var readBuffer = [UInt8](repeating: 0, count: 256 * 1024)
    private var session: TLSSession?

    /// Connects to `address`, runs the TLS handshake when `tls` is given, and sends the preface.
    init(address: ServerEndpoint, tls: LoadTLS? = nil) throws(LoadError) {
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
        if let tls {
            do {
                session = try TLSSession(client: tls.context, serverName: tls.serverName)
            } catch {
                close(descriptor)
                throw LoadError("TLS: \(error)")
            }
            do throws(LoadError) {
                try handshake()
            } catch {
                close(descriptor)
                throw error
            }
        }
        try send(Preface.bytes)
    }

    /// The TLS handshake, blocking.
    private func handshake() throws(LoadError) {
        guard let session else { return }
        while true {
            let state = session.handshake()
            try sendAll(session.takeOutput())
            switch state {
            case .done: return
            case .failed: throw LoadError("TLS handshake failed: \(session.failure)")
            case .wantRead: break
            }
            let count = readBuffer.withUnsafeMutableBytes { buffer in
                retryingOnInterrupt { recv(descriptor, buffer.baseAddress, buffer.count, 0) }
            }
            if count < 0 { throw .system("recv") }
            if count == 0 { throw LoadError("the server closed the connection during the TLS handshake") }
            readBuffer.withUnsafeBytes { _ = session.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
    }

    /// The first `count` bytes of the read buffer, just received, into the decoder (decrypted with TLS).
    private func takeReceived(_ count: Int) throws(LoadError) {
        let failure = readBuffer.withUnsafeBytes { bytes -> LoadError? in
            do throws(LoadError) {
                try decrypt(UnsafeRawBufferPointer(rebasing: bytes[0..<count]))
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// Ciphertext in, plaintext into the decoder until the session needs more.
    private func decrypt(_ ciphertext: UnsafeRawBufferPointer) throws(LoadError) {
        guard let session else {
            decoder.append(ciphertext)
            return
        }
        guard session.feed(ciphertext) else { throw LoadError("TLS: out of memory") }
        var plaintext = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let result = plaintext.withUnsafeMutableBytes { session.read(into: $0) }
            switch result {
            case .bytes(let count):
                plaintext.withUnsafeBytes { decoder.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            case .wantRead: return
            case .closed: throw LoadError("the server closed the TLS session")
            case .failed: throw LoadError("TLS: \(session.failure)")
            }
        }
    }

    deinit {
        close(descriptor)
    }

    /// Writes all of `bytes`.
    func send(_ bytes: [UInt8]) throws(LoadError) {
        guard let session else { return try sendAll(bytes) }
        guard bytes.withUnsafeBytes({ session.write($0) }) else { throw LoadError("TLS: \(session.failure)") }
        try sendAll(session.takeOutput())
    }

    /// Writes all of `bytes` to the socket as they are.
    private func sendAll(_ bytes: [UInt8]) throws(LoadError) {
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
            try takeReceived(count)
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
                try takeReceived(count)
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

    /// Ciphertext encrypted but not yet taken by the socket (0 without TLS).
    var hasPendingOutput: Bool { (session?.pendingOutput ?? 0) > 0 }

    /// Sends as much of `bytes[offset...]` as the socket takes. - Returns: the new offset. With
    /// TLS, the ciphertext waiting goes first, and new plaintext is encrypted only once it went.
    func sendSome(_ bytes: [UInt8], from offset: Int) throws(LoadError) -> Int {
        if let session {
            guard let left = session.sendOutput(to: descriptor) else { throw .system("send") }
            guard left == 0, offset < bytes.count else { return offset }
            let encrypted = bytes.withUnsafeBytes { session.write(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
            guard encrypted else { throw LoadError("TLS: \(session.failure)") }
            guard session.sendOutput(to: descriptor) != nil else { throw .system("send") }
            return bytes.count
        }
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

/// A host and port, parsed from `HOST:PORT` as `streak --server` parses it (`ServerAddress`).
struct ServerEndpoint: CustomStringConvertible, Sendable {
    var host: String
    var port: Int

    init(parsing text: String) throws(LoadError) {
        do {
            let address = try ServerAddress(parsing: text)
            host = address.host
            port = address.port
        } catch {
            throw LoadError(error.message)
        }
    }

    var description: String { "\(host):\(port)" }
}
