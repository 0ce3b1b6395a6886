import Foundation
import Testing

@testable import StreakStorage

/// The hand-shake under the group-commit writer and the checkpointer.
@Suite("Worker thread")
struct WorkerThreadTests {
    /// A worker over a queue of numbers that records, in order, the batches it ran.
    final class Recorder: @unchecked Sendable {
        let worker = WorkerThread<[Int]>(name: "test-worker")
        var queued: [Int] = []
        var ran: [[Int]] = []
        let gate = DispatchSemaphore(value: 0)

        init(holdFirstBatch: Bool) {
            worker.start(
                take: { [unowned self] _ in
                    guard !queued.isEmpty else { return nil }
                    defer { queued.removeAll() }
                    return queued
                },
                run: { [unowned self] batch in
                    if holdFirstBatch && batch.first == 0 { gate.wait() }
                    worker.withLock { ran.append(batch) }
                }
            )
        }

        /// Queues `value` unless the worker is stopping; whether it was queued.
        func submit(_ value: Int) -> Bool {
            worker.update { stopping in
                guard !stopping else { return false }
                queued.append(value)
                return true
            }
        }
    }

    @Test("work queued while the thread is busy is taken together as its next batch")
    func batchesWhatArrivesMeanwhile() {
        let recorder = Recorder(holdFirstBatch: true)
        #expect(recorder.submit(0))
        // Wait until the thread took 0 and is held in `run`, then queue three more.
        while recorder.worker.withLock({ !recorder.queued.isEmpty }) { usleep(1_000) }
        for value in 1...3 { #expect(recorder.submit(value)) }
        recorder.gate.signal()
        recorder.worker.stop()
        #expect(recorder.ran == [[0], [1, 2, 3]])
    }

    @Test("stop runs what is still queued, then refuses new work")
    func stopDrainsThenRefuses() {
        let recorder = Recorder(holdFirstBatch: true)
        #expect(recorder.submit(0))
        while recorder.worker.withLock({ !recorder.queued.isEmpty }) { usleep(1_000) }
        #expect(recorder.submit(1))
        let stopped = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            recorder.worker.stop()
            stopped.signal()
        }
        // stop() waits for the held batch and the queued one.
        #expect(stopped.wait(timeout: .now() + .milliseconds(100)) == .timedOut)
        recorder.gate.signal()
        #expect(stopped.wait(timeout: .now() + .seconds(10)) == .success)
        #expect(recorder.ran == [[0], [1]])
        #expect(!recorder.submit(2))
        #expect(recorder.worker.withLock { recorder.queued.isEmpty })
    }
}
