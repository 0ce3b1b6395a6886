import Foundation
import StreakCore
import StreakFraming
import StreakTestSupport
import StreakWire
import Testing

/// A protocol error after good requests in the same read: those requests are still answered.
@Suite struct ProtocolErrorTests {
    @Test func requestsBeforeABadFrameInTheSameReadAreAnsweredThenTheConnectionCloses() throws {
        let server = try ServerProcess.start()
        defer {
            server.stop()
            server.removeDataDirectory()
        }
        let token = try #require(server.token)
        let authorization = [MetadataEntry(key: MetadataEntry.authorizationKey, value: "Bearer \(token)")]
        // The token is fresh: both requests wait for the end of the read burst (the slow path).
        var bytes = Preface.bytes
        let streak = WireGetStreakRequest.with { $0.asOf = day("2024-03-01") }
        FrameEncoder.encode(
            .request(
                id: 1,
                method: WireMethod.getStreak.rawValue,
                metadata: authorization,
                message: streak.serializedBytes()
            ),
            into: &bytes
        )
        FrameEncoder.encode(
            .request(id: 2, method: WireMethod.watch.rawValue, metadata: authorization, message: []),
            into: &bytes
        )
        bytes += [0, 0, 0, 5, 99, 0, 0, 0, 3]  // kind 99 does not exist: a protocol error
        let connection = try TestConnection(port: server.port, timeout: .seconds(10), exchangePreface: false)
        let start = ContinuousClock.now
        try connection.sendRaw(bytes)
        try connection.readPreface()
        let frames = connection.framesUntilClose()
        let elapsed = ContinuousClock.now - start

        #expect(elapsed < .seconds(5), "the connection closed only after \(elapsed): \(frames)")
        let goAway = frames.compactMap { frame -> (UInt32, Status)? in
            if case .goAway(let last, let status) = frame { (last, status) } else { nil }
        }
        #expect(goAway.count == 1 && goAway.first?.0 == 2 && goAway.first?.1.code == .invalidArgument)
        let answer = frames.compactMap { frame -> (Status, [UInt8])? in
            if case .response(1, let status, let message) = frame { (status, message) } else { nil }
        }
        #expect(answer.count == 1 && answer.first?.0.code == .ok, "\(frames)")
        if let message = answer.first?.1 {
            #expect(try WireGetStreakResponse(serializedBytes: message).streak?.asOf == day("2024-03-01"))
        }
        // The Watch accepted before the error ends with the GOAWAY's status instead of staying open.
        let ended = frames.compactMap { frame -> Status? in
            if case .endStream(2, let status) = frame { status } else { nil }
        }
        #expect(ended.map(\.code) == [.invalidArgument], "\(frames)")
    }

    /// More requests than the output budget lets the service compute at once: the later ones are
    /// held back until answers drain, and a protocol error after them must not strand them.
    @Test func requestsHeldBackByTheOutputBudgetAreStillAnsweredAfterABadFrame() throws {
        let server = try ServerProcess.start(extraArguments: ["--idle-timeout", "60"])
        defer {
            server.stop()
            server.removeDataDirectory()
        }
        let token = try #require(server.token)
        let authorization = [MetadataEntry(key: MetadataEntry.authorizationKey, value: "Bearer \(token)")]
        var bytes = Preface.bytes
        let requests = UInt32(40)
        for id in 1...requests {
            FrameEncoder.encode(
                .request(id: id, method: WireMethod.getStreak.rawValue, metadata: authorization, message: []),
                into: &bytes
            )
        }
        FrameEncoder.encode(.response(id: 99, status: Status(.ok, ""), message: []), into: &bytes)
        let connection = try TestConnection(port: server.port, timeout: .seconds(15), exchangePreface: false)
        let start = ContinuousClock.now
        try connection.sendRaw(bytes)
        try connection.readPreface()
        let frames = connection.framesUntilClose()
        let elapsed = ContinuousClock.now - start

        let goAway = frames.compactMap { frame -> UInt32? in
            if case .goAway(let last, _) = frame { last } else { nil }
        }
        #expect(goAway == [requests], "\(frames)")
        let answered = Set(
            frames.compactMap { frame -> UInt32? in
                if case .response(let id, let status, _) = frame, status.code == .ok { id } else { nil }
            }
        )
        #expect(answered == Set(1...requests), "unanswered: \(Set(1...requests).subtracting(answered).sorted())")
        // Closed once everything was answered, not by the idle timeout.
        #expect(elapsed < .seconds(15), "the connection closed only after \(elapsed)")
    }
}
