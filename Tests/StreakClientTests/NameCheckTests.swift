import StreakClient
import StreakCore
import StreakFraming
import StreakTestSupport
import StreakWire
import Testing

/// The habit name rule is checked before sending (PROTOCOL.md section 2.2): 1 to 200 Unicode
/// scalars, not blank, no control character; a scripted server sees what was sent. The cases are
/// docs/vectors/habit-names.json, which the Python and C clients' tests read too.
@Suite("Habit names are checked before they are sent")
struct NameCheckTests {
    private func answeringServer() throws -> FakeServer {
        try FakeServer { _, frame, peer in
            guard case .request(let id, let method, _, _) = frame else { return }
            let habit = WireHabit(id: 7, name: "x")
            let message =
                method == WireMethod.createHabit.rawValue
                ? WireCreateHabitResponse(habit: habit).serializedBytes()
                : WireRenameHabitResponse(habit: habit).serializedBytes()
            peer.send(.response(id: id, status: .ok, message: message))
        }
    }

    private func client(_ server: FakeServer) -> StreakClient {
        StreakClient(
            configuration: ClientConfiguration(
                server: ServerAddress(host: "127.0.0.1", port: server.port),
                token: "stk_test"
            )
        )
    }

    private func sentNames(_ server: FakeServer) throws -> [String] {
        try server.frames.compactMap { frame -> String? in
            guard case .request(_, let method, _, let message) = frame else { return nil }
            if method == WireMethod.createHabit.rawValue {
                return try WireCreateHabitRequest(serializedBytes: message).name
            }
            if method == WireMethod.renameHabit.rawValue {
                return try WireRenameHabitRequest(serializedBytes: message).name
            }
            return nil
        }
    }

    /// `HabitName`, the rule the store applies, gives each case's reason.
    @Test func theRuleGivesEachCaseItsReason() throws {
        let vectors = try TestVectors.HabitNames.load()
        for vector in vectors.cases {
            let problem = HabitName.problem(vector.text)
            if let reason = vector.refused {
                let message = vectors.messages[reason] ?? "?"
                #expect(problem?.hasPrefix(message) == true, "\(vector.why): \(problem ?? "accepted")")
                if reason == "length" {
                    #expect(problem?.hasSuffix("got \(vector.text.unicodeScalars.count))") == true, "\(vector.why)")
                }
            } else {
                #expect(problem == nil, "\(vector.why): \(problem ?? "")")
            }
        }
    }

    @Test(.ownThreads) func validNamesAreSentAndTheOthersRefusedUnsent() async throws {
        let server = try answeringServer()
        defer { server.stop() }
        let client = client(server)
        defer { client.close() }
        let vectors = try TestVectors.HabitNames.load()
        let accepted = vectors.cases.filter { $0.refused == nil }.map(\.text)
        for name in accepted {
            _ = try await client.createHabit(name: name)
            _ = try await client.renameHabit(id: 7, to: name)
        }
        #expect(try sentNames(server) == accepted.flatMap { [$0, $0] })
        for vector in vectors.cases {
            guard let reason = vector.refused else { continue }
            await expectRefused(client, vector.text, vectors.messages[reason] ?? "?")
        }
        do {
            // The generic call checks too.
            let _: WireCreateHabitResponse = try await client.call(.createHabit, WireCreateHabitRequest(name: ""))
            Issue.record("an empty name was sent")
        } catch {
            #expect(error.code == .invalidArgument && error.origin == .local)
        }
        #expect(try sentNames(server).count == 2 * accepted.count)
    }

    private func expectRefused(_ client: StreakClient, _ name: String, _ message: String) async {
        for rename in [false, true] {
            do {
                _ = rename ? try await client.renameHabit(id: 7, to: name) : try await client.createHabit(name: name)
                Issue.record("\(name.debugDescription) was sent")
            } catch {
                #expect(error.code == .invalidArgument && error.origin == .local)
                #expect(error.message.hasPrefix(message), "\(error.message)")
            }
        }
    }
}
