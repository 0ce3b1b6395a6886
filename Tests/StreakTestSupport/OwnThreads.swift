// Swift Testing is not in every toolchain's build of this target: a release build with
// `--static-swift-stdlib` (the README's build of the tools) has no `Testing` module, and builds
// this target too, since it is not a test target.
#if canImport(Testing)
import Foundation
import Testing

/// Runs an async test on threads of its own instead of Swift's cooperative pool.
///
/// The pool has one thread per core, two on the CI machine, and most tests of a full run are
/// synchronous: each holds a pool thread while it waits for a server. An async test that
/// suspends is resumed only when a pool thread is free, behind every test the runner started
/// meanwhile; one waited 324 s, and the server it talked to had closed its connection as idle
/// after 300 s. Under this trait the test's jobs, and those of its child tasks, run on
/// `TestThreads`, which nothing else uses, so an await costs what it costs on a quiet machine.
///
/// Use it on async tests (and suites of them) only: a synchronous test moved off the pool no
/// longer counts against its width, and the runner would start more of them at once. Not on a
/// test whose subject is the pool itself (that a client's calls never block the threads other
/// tasks need, `StalledServerTests`): on threads of their own it could no longer fail.
public struct OwnThreadsTrait: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    /// Every test case runs in the scope; the suite around them needs none.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(TestThreads.shared) { try await function() }
    }
}

extension Trait where Self == OwnThreadsTrait {
    /// Runs the test's jobs on threads of their own (`OwnThreadsTrait`).
    public static var ownThreads: Self { Self() }
}

/// A task executor that runs every job on a new thread: a blocked job never delays another, and
/// the few async tests make few enough jobs that a thread each costs nothing that matters.
public final class TestThreads: TaskExecutor {
    public static let shared = TestThreads()
    private static let marker = "StreakTestSupport.TestThreads"

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        Thread.detachNewThread {
            Thread.current.threadDictionary[Self.marker] = true
            job.runSynchronously(on: executor)
        }
    }

    /// Whether the calling code runs on one of these threads.
    public static var runsTheCurrentThread: Bool { Thread.current.threadDictionary[marker] != nil }
}
#endif
