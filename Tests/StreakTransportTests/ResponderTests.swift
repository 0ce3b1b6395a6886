import Dispatch
import StreakFraming
import Synchronization
import Testing

@testable import StreakTransport

@Suite("Responder")
struct ResponderTests {
    static func decode(_ bytes: [UInt8]) throws -> [Frame] {
        var decoder = FrameDecoder(expectsPreface: false)
        decoder.append(contentsOf: bytes)
        var frames: [Frame] = []
        while let frame = try decoder.next() { frames.append(frame) }
        return frames
    }

    @Test("a cancelled stream's id reused for a unary call gets no stray stream message or answer")
    func reusedIDIsAnotherRequest() throws {
        let responder = Responder(executor: DispatchQueue(label: "test")) {}
        guard case .accepted(let watch) = responder.register(5, limit: 8) else {
            Issue.record("not accepted")
            return
        }
        let ended = Atomic<Int>(0)
        responder.onStreamTermination(5, generation: watch) { ended.add(1, ordering: .relaxed) }
        responder.terminate(5, status: Status(.cancelled, "cancelled by the client"))
        guard case .accepted(let unary) = responder.register(5, limit: 8) else {
            Issue.record("not accepted")
            return
        }
        let endedOnce = ended.load(ordering: .relaxed)
        #expect(unary != watch && endedOnce == 1)
        _ = responder.takeOutput()

        // The old stream's late work: dropped, and a termination handler registered late runs at once.
        #expect(!responder.sendStreamMessage(to: 5, generation: watch, message: [1]))
        responder.endStream(5, generation: watch, status: .ok)
        responder.respond(to: 5, generation: watch, status: .ok, message: [9])
        responder.onStreamTermination(5, generation: watch) { ended.add(1, ordering: .relaxed) }
        let endedTwice = ended.load(ordering: .relaxed)
        #expect(responder.takeOutput().isEmpty && endedTwice == 2)
        #expect(responder.isActive(5, generation: unary) && !responder.isActive(5, generation: watch))

        responder.respond(to: 5, generation: unary, status: .ok, message: [2])
        #expect(try Self.decode(responder.takeOutput()) == [.response(id: 5, status: .ok, message: [2])])
    }

    @Test("a stream message that finds too much unsent output ends the stream RESOURCE_EXHAUSTED")
    func slowReaderEndsTheStream() throws {
        let responder = Responder(executor: DispatchQueue(label: "test"), streamOutputLimit: 1_000) {}
        guard case .accepted(let generation) = responder.register(3, limit: 8) else {
            Issue.record("not accepted")
            return
        }
        let ended = Atomic<Bool>(false)
        responder.onStreamTermination(3, generation: generation) { ended.store(true, ordering: .relaxed) }
        #expect(responder.sendStreamMessage(to: 3, generation: generation, message: [1]))
        responder.noteUnsentBytes(5_000)  // the client stopped reading
        #expect(!responder.sendStreamMessage(to: 3, generation: generation, message: [2]))
        let wasEnded = ended.load(ordering: .relaxed)
        #expect(wasEnded && !responder.isActive(3))
        let frames = try Self.decode(responder.takeOutput())
        #expect(frames.first == .streamMessage(id: 3, message: [1]))
        guard case .endStream(3, let status) = frames.last else {
            Issue.record("no END_STREAM: \(frames)")
            return
        }
        #expect(status.code == .resourceExhausted && frames.count == 2)
    }

    @Test("an answer or stream message over the frame limit becomes RESOURCE_EXHAUSTED; one that fits is sent")
    func framesOverTheLimitAreNotSent() throws {
        let responder = Responder(executor: DispatchQueue(label: "test"), maxFrameSize: 200) {}
        var generations: [UInt64] = []
        for id: UInt32 in 1...3 {
            guard case .accepted(let generation) = responder.register(id, limit: 8) else {
                Issue.record("not accepted")
                return
            }
            generations.append(generation)
        }
        // A RESPONSE with an empty status message takes 8 bytes besides its message.
        responder.respond(to: 1, generation: generations[0], status: .ok, message: Array(repeating: 7, count: 192))
        responder.respond(to: 2, generation: generations[1], status: .ok, message: Array(repeating: 7, count: 193))
        #expect(
            !responder.sendStreamMessage(to: 3, generation: generations[2], message: Array(repeating: 7, count: 196))
        )
        let frames = try Self.decode(responder.takeOutput())
        #expect(frames.count == 3)
        #expect(frames.first == .response(id: 1, status: .ok, message: Array(repeating: 7, count: 192)))
        guard case .response(2, let answer, let body) = frames[1], case .endStream(3, let stream) = frames[2] else {
            Issue.record("unexpected frames: \(frames)")
            return
        }
        #expect(answer.code == .resourceExhausted && body.isEmpty && answer.message.contains("193 bytes"))
        #expect(stream.code == .resourceExhausted && !responder.isActive(3))
    }

    @Test("after endAllStreams a stream registered late ends at once with that status")
    func lateStreamAfterProtocolError() throws {
        let responder = Responder(executor: DispatchQueue(label: "test")) {}
        guard case .accepted(let generation) = responder.register(2, limit: 8) else {
            Issue.record("not accepted")
            return
        }
        responder.endAllStreams(status: Status(.invalidArgument, "bad frame"))
        let ended = Atomic<Bool>(false)
        responder.onStreamTermination(2, generation: generation) { ended.store(true, ordering: .relaxed) }
        let wasEnded = ended.load(ordering: .relaxed)
        #expect(wasEnded)
        #expect(
            try Self.decode(responder.takeOutput()) == [
                .endStream(id: 2, status: Status(.invalidArgument, "bad frame"))
            ]
        )
    }

    @Test("a stream waiting for the output to drain resumes once when it does, and is dropped when it ends")
    func drainWaiters() throws {
        final class Captured: Sendable {}
        let responder = Responder(executor: DispatchQueue(label: "test")) {}
        guard case .accepted(let first) = responder.register(1, limit: 8),
            case .accepted(let second) = responder.register(2, limit: 8)
        else {
            Issue.record("not accepted")
            return
        }
        let resumed = Atomic<Int>(0)
        responder.noteUnsentBytes(5_000)
        // Already at or under the threshold: the caller goes on, nothing is kept.
        #expect(
            !responder.resumeWhenOutputDrains(to: 5_000, stream: 1, generation: first) {
                resumed.add(100, ordering: .relaxed)
            }
        )
        #expect(
            responder.resumeWhenOutputDrains(to: 1_000, stream: 1, generation: first) {
                resumed.add(1, ordering: .relaxed)
            }
        )
        weak var dropped: Captured?
        do {
            let captured = Captured()
            dropped = captured
            #expect(
                responder.resumeWhenOutputDrains(to: 1_000, stream: 2, generation: second) {
                    _ = captured
                    resumed.add(10, ordering: .relaxed)
                }
            )
        }
        responder.noteUnsentBytes(3_000)
        #expect(resumed.load(ordering: .relaxed) == 0)
        // Stream 2 ends first: its waiter goes, and what it held with it.
        responder.terminate(2, status: Status(.cancelled, "cancelled by the client"))
        _ = responder.takeOutput()
        #expect(dropped == nil)
        responder.noteUnsentBytes(900)
        responder.noteUnsentBytes(0)
        #expect(resumed.load(ordering: .relaxed) == 1)
        // A stream that is gone keeps nothing, and tells the caller not to go on.
        #expect(
            responder.resumeWhenOutputDrains(to: 0, stream: 2, generation: second) {
                resumed.add(1_000, ordering: .relaxed)
            }
        )
        // Closing the connection drops the waiters.
        responder.noteUnsentBytes(5_000)
        #expect(
            responder.resumeWhenOutputDrains(to: 1_000, stream: 1, generation: first) {
                resumed.add(1, ordering: .relaxed)
            }
        )
        responder.connectionClosed()
        responder.noteUnsentBytes(0)
        #expect(resumed.load(ordering: .relaxed) == 1)
    }
}
