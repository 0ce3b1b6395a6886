import Dispatch
import StreakClient
import StreakFraming
import StreakTestSupport
import StreakWire
import Synchronization
import Testing

@Suite("Calls to a server that stopped reading")
struct StalledServerTests {
    /// When the silent listener drops its connection (seconds): a call stuck in a send ends then.
    static let dropAfter = 50.0
    /// Sooner than the drop: the call ended by itself.
    static let bound = Duration.seconds(40)

    /// A server that accepts a connection and never reads from it (frozen, or behind a stalled
    /// proxy) fills the socket buffers; the calls after that must still end at their deadlines,
    /// and must not hold the threads that the application's other tasks run on.
    @Test(.timeLimit(.minutes(2)))
    func callsEndAtTheirDeadlinesAndOtherTasksStillRun() async throws {
        let (listener, connection) = try await Self.connectToSilentListener()
        defer { listener.drop() }
        defer { connection.close() }
        // 48 calls of 256 KiB each: more than the buffers of both sockets hold (a few MiB).
        let request = WireCreateHabitRequest(name: String(repeating: "x", count: 256 << 10))
        let start = ContinuousClock.now
        let outcomes = await withTaskGroup(of: (code: Status.Code?, after: Duration).self) { group in
            for _ in 0..<48 {
                group.addTask {
                    let code = await Self.code(of: connection, request, deadline: .milliseconds(300))
                    return (code, ContinuousClock.now - start)
                }
            }
            // Work that has nothing to do with the connection, started once the calls were.
            group.addTask {
                await Task.yield()
                return (.ok, ContinuousClock.now - start)
            }
            var outcomes: [(code: Status.Code?, after: Duration)] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
        let calls = outcomes.filter { $0.code != Status.Code.ok }
        let unrelated = outcomes.filter { $0.code == Status.Code.ok }
        #expect(calls.count == 48)
        #expect(calls.allSatisfy { $0.code == Status.Code.deadlineExceeded })
        let slowest = calls.map(\.after).max() ?? .zero
        #expect(slowest < Self.bound, "\(slowest)")
        #expect(unrelated.count == 1)
        #expect(unrelated.allSatisfy { $0.after < Self.bound })
    }

    /// `close()` ends the calls whose frames wait behind a write the server does not take.
    @Test(.timeLimit(.minutes(2)))
    func closeEndsCallsWaitingToBeSent() async throws {
        let (listener, connection) = try await Self.connectToSilentListener()
        defer { listener.drop() }
        let request = WireCreateHabitRequest(name: String(repeating: "x", count: 256 << 10))
        let start = ContinuousClock.now
        let codes = await withTaskGroup(of: Status.Code?.self) { group in
            for _ in 0..<48 {
                group.addTask { await Self.code(of: connection, request, deadline: nil) }
            }
            // Every call is pending before the connection closes.
            while connection.inFlightCount < 48 { await Task.yield() }
            connection.close()
            var codes: [Status.Code?] = []
            for await code in group { codes.append(code) }
            return codes
        }
        #expect(codes.count == 48)
        #expect(codes.allSatisfy { $0 == Status.Code.unavailable })
        #expect(ContinuousClock.now - start < Self.bound)
    }

    /// A connection to a listener that never reads. A call that blocked its thread in the socket
    /// would stay blocked until the connection breaks: the listener is dropped after `dropAfter`,
    /// which resets it, so that a test fails instead of hanging. The tests' bounds are that
    /// moment, not a speed: the whole suite shares the cooperative pool, and other tests'
    /// blocking work may hold it for seconds.
    static func connectToSilentListener() async throws -> (DroppableListener, StreakConnection) {
        let listener = DroppableListener(try SilentListener())
        DispatchQueue.global().asyncAfter(deadline: .now() + dropAfter) { listener.drop() }
        do {
            let connection = try await StreakConnection.connect(
                ClientConfiguration(
                    server: ServerAddress(host: "127.0.0.1", port: listener.port),
                    token: "stk_test",
                    defaultDeadline: nil
                )
            )
            return (listener, connection)
        } catch {
            listener.drop()
            throw error
        }
    }

    /// Calls CreateHabit; the error's code, nil when it was answered.
    static func code(
        of connection: StreakConnection,
        _ request: WireCreateHabitRequest,
        deadline: Duration?
    ) async -> Status.Code? {
        do throws(StreakClientError) {
            let _: WireCreateHabitResponse = try await connection.call(.createHabit, request, deadline: deadline)
            return nil
        } catch {
            return error.code
        }
    }
}

/// A `SilentListener` that can be closed from any thread, once.
final class DroppableListener: Sendable {
    let port: Int
    private let listener: Mutex<SilentListener?>

    init(_ listener: SilentListener) {
        port = listener.port
        self.listener = Mutex(listener)
    }

    /// Closes the listening socket, which resets the connections it never accepted.
    func drop() {
        _ = listener.withLock { $0.take() }
    }
}
