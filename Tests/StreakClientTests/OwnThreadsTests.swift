import StreakTestSupport
import Testing

/// The trait that keeps async tests off the cooperative pool does what it says.
@Suite("Async tests on threads of their own")
struct OwnThreadsTests {
    @Test(.ownThreads) func theTestAndItsChildTasksRunOnTestThreads() async throws {
        #expect(TestThreads.runsTheCurrentThread)
        try await Task.sleep(for: .milliseconds(10))
        #expect(TestThreads.runsTheCurrentThread, "after a suspension")
        async let child = TestThreads.runsTheCurrentThread
        #expect(await child, "a child task")
        let grouped = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<4 { group.addTask { TestThreads.runsTheCurrentThread } }
            return await group.reduce(true) { $0 && $1 }
        }
        #expect(grouped, "a task group's tasks")
        // An unstructured task does not inherit the preference: it names the executor itself.
        #expect(await !Task { TestThreads.runsTheCurrentThread }.value)
        #expect(await Task(executorPreference: TestThreads.shared) { TestThreads.runsTheCurrentThread }.value)
    }

    @Test func withoutTheTraitATestRunsOnThePool() async {
        #expect(!TestThreads.runsTheCurrentThread)
    }
}
