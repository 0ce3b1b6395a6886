import Foundation
import StreakFraming

extension StreakConnection {
    /// Runs on the reader thread until the connection ends, then fails every pending call.
    func readLoop() {
        var decoder = FrameDecoder(expectsPreface: true)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
        defer { buffer.deallocate() }
        var failure: StreakClientError?
        reading: while true {
            let count = socket.read(into: buffer)
            if count < 0, let reason = socket.tls?.failure {
                failure = StreakClientError(
                    .unavailable,
                    "TLS failed on the connection to streakd at \(address): \(reason)",
                    origin: .connection
                )
            }
            if count <= 0 { break }
            decoder.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            do {
                while let frame = try decoder.next() { handle(frame) }
            } catch {
                failure = StreakClientError(
                    .internal,
                    "protocol error from streakd at \(address): \(error.message)",
                    origin: .connection
                )
                break reading
            }
        }
        socket.shutdown()
        connectionEnded(failure)
    }

    private func handle(_ frame: Frame) {
        switch frame {
        case .response(let id, let status, let message):
            deliver(id, status.code == .ok ? .success(message) : .failure(StreakClientError(status: status)))
        case .streamMessage(let id, let message):
            deliverStreamMessage(id, message)
        case .endStream(let id, let status):
            deliver(id, status.code == .ok ? .success([]) : .failure(StreakClientError(status: status)))
        case .ping(let payload):
            writer.enqueue(FrameEncoder.encode(.pong(payload)))
        case .goAway(let lastID, let status):
            receivedGoAway(lastID: lastID, status: status)
        case .request, .cancel, .pong:
            break
        }
    }
}
