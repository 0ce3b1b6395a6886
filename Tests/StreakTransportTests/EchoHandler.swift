import Dispatch
import StreakFraming
import StreakTransport

/// Echoes `/echo` inline, answers `/later` from another thread after a short delay, never
/// answers `/slow`, streams three messages for `/stream`, and sends `/big` a 1 MiB answer.
/// `/watch` opens a stream that stays open; `onStreamTermination` hears when it ends.
/// `/quietstream` is a streaming method whose handler never opens its stream (like a Watch
/// waiting for its user to load).
/// `/serial` is echoed and `/serialbig` answered with 1 MiB (the first byte of its message
/// repeated) from one serial queue shared by every connection, in the order they arrived, the
/// way the storage writer answers durable writes.
struct EchoHandler: RequestHandler {
    static let serialQueue = DispatchQueue(label: "echo-serial")

    var onStreamTermination: @Sendable (_ message: [UInt8]) -> Void = { _ in }

    func handle(_ requests: [IncomingRequest], responder: Responder) {
        for request in requests { handle(request, responder: responder) }
    }

    func isServerStreaming(_ method: String) -> Bool {
        method == "/stream" || method == "/watch" || method == "/quietstream"
    }

    private func handle(_ request: IncomingRequest, responder: Responder) {
        switch request.method {
        case "/echo":
            responder.respond(to: request.id, status: .ok, message: request.message)
        case "/later":
            let delay = Int(request.message.first ?? 10)
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(delay)) {
                responder.respond(to: request.id, status: .ok, message: request.message)
            }
        case "/slow", "/quietstream":
            break
        case "/stream":
            for index in 0..<3 { responder.sendStreamMessage(to: request.id, message: [UInt8(index)]) }
            responder.endStream(request.id, status: .ok)
        case "/watch":
            let message = request.message
            responder.onStreamTermination(request.id) { [onStreamTermination] in onStreamTermination(message) }
            responder.sendStreamMessage(to: request.id, message: [1])
        case "/serial":
            Self.serialQueue.async { responder.respond(to: request, status: .ok, message: request.message) }
        case "/serialbig":
            let byte = request.message.first ?? 0
            Self.serialQueue.async {
                responder.respond(to: request, status: .ok, message: [UInt8](repeating: byte, count: 1 << 20))
            }
        case "/big":
            responder.respond(to: request.id, status: .ok, message: [UInt8](repeating: 7, count: 1 << 20))
        default:
            responder.respond(
                to: request.id,
                status: Status(.unimplemented, "no method \(request.method)"),
                message: []
            )
        }
    }
}
