import Dispatch
import Foundation
import Synchronization

/// The frames waiting to go out on one connection, and the thread that sends them.
///
/// A call only appends its frame here (under a lock held for the append) and returns to its
/// task: the socket's blocking `send` runs on the writer thread alone. A server that stops
/// reading (frozen, or behind a stalled proxy) then holds up that one thread, never the
/// threads of the caller's executor, and a deadline or cancellation still ends each call.
/// Frames leave in the order they were appended, which keeps a CANCEL behind its request.
final class ConnectionWriter: Sendable {
    /// A frame in the queue; `requestID` names the call whose REQUEST it is.
    private struct Outgoing {
        let bytes: [UInt8]
        let requestID: UInt32?
    }

    private struct State {
        var queue: [Outgoing] = []
        /// The index of the next frame to send: the ones before it were taken.
        var head = 0
        var isClosed = false
    }

    private let state = Mutex(State())
    /// Signalled once per append and once by `close()`: the writer thread waits on it when idle.
    private let wakeup = DispatchSemaphore(value: 0)

    /// Starts the writer thread; it sends over `socket` until `close()`, or until a send
    /// fails, after which it shuts the socket down so the reader ends the connection.
    init(socket: ClientSocket) {
        let thread = Thread { [self, socket] in run(socket) }
        thread.name = "streak-client-writer"
        thread.start()
    }

    /// Appends a frame; false when the writer was closed (the frame is dropped).
    /// - Parameter requestID: the call's id when `bytes` is its REQUEST, so that `withdraw`
    ///   can take it back while it has not started to go out.
    @discardableResult
    func enqueue(_ bytes: [UInt8], request requestID: UInt32? = nil) -> Bool {
        let accepted = state.withLock { state in
            guard !state.isClosed else { return false }
            state.queue.append(Outgoing(bytes: bytes, requestID: requestID))
            return true
        }
        if accepted { wakeup.signal() }
        return accepted
    }

    /// Removes call `requestID`'s REQUEST when none of it was sent yet.
    /// - Returns: true when it was removed, so that the server never hears of the call; false
    ///   when it is being sent or went out already (the server needs a CANCEL).
    func withdraw(request requestID: UInt32) -> Bool {
        state.withLock { state in
            guard let index = state.queue[state.head...].firstIndex(where: { $0.requestID == requestID }) else {
                return false
            }
            state.queue.remove(at: index)
            return true
        }
    }

    /// Stops the writer: frames not sent yet are dropped. A send under way is not interrupted
    /// here; shutting the socket down does that.
    func close() {
        let wasOpen = state.withLock { state in
            defer {
                state.isClosed = true
                state.queue = []
                state.head = 0
            }
            return !state.isClosed
        }
        if wasOpen { wakeup.signal() }
    }

    /// The writer thread's loop.
    private func run(_ socket: ClientSocket) {
        while true {
            wakeup.wait()
            while let bytes = next() {
                guard socket.write(bytes) else {
                    close()
                    socket.shutdown()
                    return
                }
            }
            if state.withLock({ $0.isClosed }) { return }
        }
    }

    /// Takes the next frame to send; nil when the queue is empty or closed.
    private func next() -> [UInt8]? {
        state.withLock { state in
            guard !state.isClosed, state.head < state.queue.count else { return nil }
            let bytes = state.queue[state.head].bytes
            state.head += 1
            // Drop the sent prefix now and then rather than on every frame.
            if state.head == state.queue.count {
                state.queue.removeAll(keepingCapacity: true)
                state.head = 0
            } else if state.head >= 64, state.head * 2 >= state.queue.count {
                state.queue.removeFirst(state.head)
                state.head = 0
            }
            return bytes
        }
    }
}
