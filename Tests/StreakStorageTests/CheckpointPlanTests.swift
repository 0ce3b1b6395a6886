import Testing

@testable import StreakStorage

@Suite("Who copies the write-ahead log back")
struct CheckpointPlanTests {
    /// One step of a log's life: a commit leaving the log `frames` long and the action expected,
    /// or a copy finishing.
    enum Step {
        case commit(Int32, CheckpointPlan.Action)
        case backgroundCopied(Int32, cycle: Int)
        case committerCopied(Int32)
    }

    /// A named sequence of steps, from a fresh plan (threshold 100, tail 20).
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let steps: [Step]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "below the threshold nobody copies",
            steps: [.commit(10, .none), .commit(99, .none)]
        ),
        Case(
            name: "past it the thread copies the bulk, then the committer the few frames added meanwhile",
            steps: [
                .commit(100, .inBackground(cycle: 0)),
                .commit(103, .none),
                .commit(106, .none),
                .backgroundCopied(103, cycle: 0),
                .commit(109, .onCommitter),
                .committerCopied(109),
                // The next transaction restarts the log: a new cycle, below the threshold again.
                .commit(3, .none),
                .commit(100, .inBackground(cycle: 1)),
            ]
        ),
        Case(
            name: "a background copy that fell far behind is followed by another one, not by the committer",
            steps: [
                .commit(100, .inBackground(cycle: 0)),
                .backgroundCopied(100, cycle: 0),
                .commit(150, .inBackground(cycle: 0)),
                .backgroundCopied(150, cycle: 0),
                .commit(160, .onCommitter),
            ]
        ),
        Case(
            name: "a log kept from restarting (a reader's old snapshot) is tried again only a tail later",
            steps: [
                .commit(100, .inBackground(cycle: 0)),
                .backgroundCopied(100, cycle: 0),
                .commit(104, .onCommitter),
                .committerCopied(104),
                .commit(110, .none),
                .commit(123, .none),
                .commit(124, .onCommitter),
            ]
        ),
        Case(
            name: "a copy of the log that restarted since says nothing about the new one",
            steps: [
                .commit(100, .inBackground(cycle: 0)),
                .commit(2, .none),
                .backgroundCopied(100, cycle: 0),
                .commit(100, .inBackground(cycle: 1)),
            ]
        ),
        Case(
            name: "a background copy that got no further (a reader's old snapshot) is retried only a tail later",
            steps: [
                .commit(100, .inBackground(cycle: 0)),
                .backgroundCopied(60, cycle: 0),
                .commit(110, .inBackground(cycle: 0)),
                .backgroundCopied(60, cycle: 0),
                .commit(111, .none),
                .commit(129, .none),
                .commit(130, .inBackground(cycle: 0)),
                .backgroundCopied(125, cycle: 0),
                .commit(131, .onCommitter),
            ]
        ),
        Case(
            name: "a first background copy that copied nothing (the log was busy) is retried a tail later",
            steps: [
                .commit(100, .inBackground(cycle: 0)),
                .backgroundCopied(0, cycle: 0),
                .commit(119, .none),
                .commit(130, .inBackground(cycle: 0)),
            ]
        ),
    ]

    @Test("the plan's action after each commit", arguments: cases)
    func actions(_ testCase: Case) {
        var plan = CheckpointPlan(threshold: 100, tail: 20)
        for (index, step) in testCase.steps.enumerated() {
            switch step {
            case .commit(let frames, let expected):
                let action = plan.committed(logFrames: frames)
                #expect(action == expected, "\(testCase.name): step \(index), a log of \(frames) frames")
            case .backgroundCopied(let frames, let cycle):
                plan.copied(frames: frames, cycle: cycle)
            case .committerCopied(let frames):
                plan.copied(frames: frames, cycle: nil)
            }
        }
    }
}
