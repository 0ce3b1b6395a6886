import StreakFraming
import StreakTestSupport
import StreakWire
import Synchronization
import Testing

@testable import StreakClient

@Suite("Watch reconnection decisions")
struct WatchReconnectStateMachineTests {
    static let lost = StreakClientError(
        .unavailable,
        "connection to streakd at 127.0.0.1:1 closed",
        origin: .connection
    )
    static let policy = WatchReconnectPolicy(
        maxAttempts: 3,
        initialBackoff: .milliseconds(100),
        maxBackoff: .seconds(1)
    )

    /// One loss: wait, subscribe, then back to a running subscription.
    @Test func lossWaitsThenResubscribes() {
        var machine = WatchReconnectStateMachine(policy: Self.policy)
        #expect(machine.streamEnded(Self.lost, after: .seconds(1)) == .sleep(.milliseconds(100)))
        #expect(machine.phase == .backingOff)
        #expect(machine.backoffElapsed() == .resubscribe)
        #expect(machine.phase == .subscribing)
        machine.subscribed()
        #expect(machine.phase == .subscribed)
        #expect(machine.failedAttempts == 1)
    }

    /// Only UNAVAILABLE is worth another subscription; the server's other answers end the watch.
    @Test(arguments: [Status.Code.unauthenticated, .permissionDenied, .internal, .invalidArgument, .deadlineExceeded])
    func otherErrorsFail(code: Status.Code) {
        let error = StreakClientError(code, "no", origin: .server)
        var ended = WatchReconnectStateMachine(policy: Self.policy)
        #expect(ended.streamEnded(error, after: .zero) == .fail(error))
        #expect(ended.phase == .failed)
        var connecting = WatchReconnectStateMachine(policy: Self.policy)
        _ = connecting.streamEnded(Self.lost, after: .zero)
        _ = connecting.backoffElapsed()
        #expect(connecting.subscribeFailed(error) == .fail(error))
    }

    /// Subscriptions dropped at once, or connections refused, count in a row; one past
    /// `maxAttempts` gives up with the last error.
    @Test func givesUpAfterMaxAttempts() {
        var machine = WatchReconnectStateMachine(policy: Self.policy)
        let refused = StreakClientError(.unavailable, "cannot reach streakd", origin: .connect)
        #expect(machine.streamEnded(Self.lost, after: .zero) == .sleep(.milliseconds(100)))
        #expect(machine.backoffElapsed() == .resubscribe)
        #expect(machine.subscribeFailed(refused) == .sleep(.milliseconds(200)))
        #expect(machine.backoffElapsed() == .resubscribe)
        machine.subscribed()
        #expect(machine.streamEnded(Self.lost, after: .milliseconds(5)) == .sleep(.milliseconds(400)))
        #expect(machine.backoffElapsed() == .resubscribe)
        var gaveUp = refused
        gaveUp.message += " (gave up after 3 reconnection attempts)"
        #expect(machine.subscribeFailed(refused) == .fail(gaveUp))
        #expect(machine.phase == .failed)
    }

    /// An event means the server is back: the count starts again.
    @Test func eventResetsTheCount() {
        var machine = WatchReconnectStateMachine(policy: Self.policy)
        _ = machine.streamEnded(Self.lost, after: .zero)
        _ = machine.backoffElapsed()
        machine.subscribed()
        _ = machine.streamEnded(Self.lost, after: .zero)
        _ = machine.backoffElapsed()
        machine.subscribed()
        #expect(machine.failedAttempts == 2)
        machine.eventReceived()
        #expect(machine.failedAttempts == 0)
        #expect(machine.streamEnded(Self.lost, after: .zero) == .sleep(.milliseconds(100)))
    }

    /// A subscription that lasted `maxBackoff` × 10 starts the count again even without an
    /// event; a shorter one does not.
    @Test(arguments: [
        (Duration.seconds(10), Duration.milliseconds(100)),
        (.seconds(11), .milliseconds(100)),
        (.milliseconds(9_999), .milliseconds(400)),
    ])
    func stableSubscriptionResetsTheCount(lasted: Duration, wait: Duration) {
        var machine = WatchReconnectStateMachine(policy: Self.policy)
        for _ in 0..<2 {
            _ = machine.streamEnded(Self.lost, after: .zero)
            _ = machine.backoffElapsed()
            machine.subscribed()
        }
        #expect(machine.streamEnded(Self.lost, after: lasted) == .sleep(wait))
    }

    /// The waits double up to `maxBackoff` and stay there.
    @Test func backoffDoublesUpToTheCap() {
        var machine = WatchReconnectStateMachine(
            policy: WatchReconnectPolicy(maxAttempts: 8, initialBackoff: .milliseconds(100), maxBackoff: .seconds(1))
        )
        var waits: [Duration] = []
        var action = machine.streamEnded(Self.lost, after: .zero)
        while case .sleep(let wait) = action {
            waits.append(wait)
            _ = machine.backoffElapsed()
            action = machine.subscribeFailed(Self.lost)
        }
        #expect(waits == [100, 200, 400, 800, 1000, 1000, 1000, 1000].map { Duration.milliseconds($0) })
        #expect(machine.phase == .failed)
    }

    /// The whole loop on a virtual clock: a server that ends every subscription at once makes
    /// the default policy give up after its ten attempts, having waited the backoffs in turn
    /// (and no wall time).
    @Test(.ownThreads, .timeLimit(.minutes(1)))
    func watchGivesUpOnAVirtualClock() async throws {
        let server = try FakeServer { _, frame, peer in
            guard case .request(let id, _, _, _) = frame else { return }
            peer.send(.endStream(id: id, status: Status(.unavailable, "the server is shutting down")))
        }
        defer { server.stop() }
        let client = StreakClient(
            configuration: ClientConfiguration(
                server: ServerAddress(host: "127.0.0.1", port: server.port),
                token: "stk_test",
                defaultDeadline: .seconds(30)
            )
        )
        defer { client.close() }
        let clock = VirtualClock()
        let events = try await client.watch(
            WireWatchRequest(),
            reconnect: .default,
            clock: clock,
            onReconnect: nil
        )
        do {
            for try await _ in events { Issue.record("no event was sent") }
            Issue.record("the watch ended without an error")
        } catch {
            #expect(error.code == .unavailable)
            #expect(error.message.contains("gave up after 10 reconnection attempts"), "\(error.message)")
        }
        let waits = [100, 200, 400, 800, 1600, 3000, 3000, 3000, 3000, 3000].map { Duration.milliseconds($0) }
        #expect(clock.sleeps == waits)
    }
}

/// A clock whose time moves only when someone sleeps on it: a sleep returns at once, with the
/// clock moved to its deadline. The sleeps are recorded.
final class VirtualClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (left: Instant, right: Instant) -> Bool { left.offset < right.offset }
    }

    private let state = Mutex((now: Instant(offset: .zero), sleeps: [Duration]()))

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .zero }

    /// Every sleep's length, in order.
    var sleeps: [Duration] { state.withLock { $0.sleeps } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
        state.withLock { state in
            state.sleeps.append(max(.zero, state.now.duration(to: deadline)))
            state.now = max(state.now, deadline)
        }
        await Task.yield()
    }
}
