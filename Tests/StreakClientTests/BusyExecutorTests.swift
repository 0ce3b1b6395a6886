import Dispatch
import StreakClient
import StreakTestSupport
import StreakWire
import Synchronization
import Testing

@Suite("Connecting while the caller's executor is busy")
struct BusyExecutorTests {
    /// An application whose tasks keep every thread of their executor busy for longer than the
    /// server's handshake timeout must still get a working connection: the preface is sent by the
    /// thread that connected, not by the task once it runs again.
    @Test(.ownThreads, .timeLimit(.minutes(1)))
    func prefaceDoesNotWaitForTheCallersExecutor() async throws {
        let server = try ServerProcess.start(extraArguments: ["--handshake-timeout", "1"])
        defer { server.stop() }
        let configuration = ClientConfiguration(
            server: ServerAddress(host: "127.0.0.1", port: server.port),
            token: server.token,
            defaultDeadline: .seconds(30)
        )
        let executor = HoldingExecutor()
        // The task's first step starts the connect; every later step waits until `release`.
        let call = Task(executorPreference: executor) { () async throws(StreakClientError) -> WireListHabitsResponse in
            let connection = try await StreakConnection.connect(configuration)
            defer { connection.close() }
            return try await connection.call(.listHabits, WireListHabitsRequest())
        }
        try await Task.sleep(for: .milliseconds(2_500))
        executor.release()
        let answer = try await call.value
        #expect(answer.habits.isEmpty)
        #expect(executor.heldJobs > 0)
    }
}

/// Runs the first job it is given at once and holds every later one until `release()`: a
/// stand-in for an executor whose threads are all busy.
final class HoldingExecutor: TaskExecutor, @unchecked Sendable {
    private struct State {
        var jobsSeen = 0
        var released = false
        var held: [UnownedJob] = []
        var heldTotal = 0
    }

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "holding-executor")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let runNow = state.withLock { state -> Bool in
            state.jobsSeen += 1
            guard state.jobsSeen > 1, !state.released else { return true }
            state.held.append(job)
            state.heldTotal += 1
            return false
        }
        if runNow { queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) } }
    }

    /// Runs the held jobs and every later one at once.
    func release() {
        let held = state.withLock { state in
            state.released = true
            defer { state.held = [] }
            return state.held
        }
        for job in held { queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) } }
    }

    /// How many jobs waited for `release()`.
    var heldJobs: Int { state.withLock { $0.heldTotal } }
}
