import StreakClient
import StreakCore
import StreakFraming
import StreakTestSupport
import StreakWire
import Testing

/// The habit name rule is checked before sending (PROTOCOL.md section 2.2): 1 to 200 Unicode
/// scalars, not blank, no control character; a scripted server sees what was sent.
@Suite("Habit names are checked before they are sent")
struct NameCheckTests {
    /// 200 Unicode scalars each: an emoji outside the BMP is one, e + a combining accent two, a flag two.
    static let accepted = [
        String(repeating: "a", count: 200),
        String(repeating: "\u{1F3C3}", count: 200),
        String(repeating: "e\u{301}", count: 100),
        String(repeating: "\u{1F1F3}\u{1F1F1}", count: 100),
        String(repeating: "\u{E9}", count: 200),
    ]

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

    @Test func aName200ScalarsLongIsSentAnd201IsRefusedUnsent() async throws {
        let server = try answeringServer()
        defer { server.stop() }
        let client = client(server)
        defer { client.close() }
        for name in Self.accepted {
            #expect(name.unicodeScalars.count == 200 && HabitName.problem(name) == nil)
            _ = try await client.createHabit(name: name)
            _ = try await client.renameHabit(id: 7, to: name)
        }
        #expect(try sentNames(server) == Self.accepted.flatMap { [$0, $0] })
        let tooLong =
            Self.accepted.map { $0 + String($0.unicodeScalars.last!) } + [
                String(repeating: "e\u{301}", count: 100) + "e"
            ]
        for name in tooLong {
            #expect(name.unicodeScalars.count == 201)
            await expectRefused(client, name, "a habit name is 1 to 200 characters (Unicode scalars; got 201)")
        }
        #expect(try sentNames(server).count == 2 * Self.accepted.count)
    }

    @Test func blankAndControlNamesAreRefusedUnsent() async throws {
        let server = try answeringServer()
        defer { server.stop() }
        let client = client(server)
        defer { client.close() }
        await expectRefused(client, "", "got 0")
        await expectRefused(client, " \t\u{3000}", "a character that is not white space")
        await expectRefused(client, "Read\u{0}", "control characters")
        await expectRefused(client, "Re\nad", "control characters")
        await expectRefused(client, "Read\u{85}", "control characters")
        do {
            // The generic call checks too.
            let _: WireCreateHabitResponse = try await client.call(.createHabit, WireCreateHabitRequest(name: ""))
            Issue.record("an empty name was sent")
        } catch {
            #expect(error.code == .invalidArgument && error.origin == .local)
        }
        #expect(try sentNames(server).isEmpty)
    }

    private func expectRefused(_ client: StreakClient, _ name: String, _ message: String) async {
        for rename in [false, true] {
            do {
                _ = rename ? try await client.renameHabit(id: 7, to: name) : try await client.createHabit(name: name)
                Issue.record("\(name.unicodeScalars.count) scalars were sent")
            } catch {
                #expect(error.code == .invalidArgument && error.origin == .local)
                #expect(error.message.contains(message), "\(error.message)")
            }
        }
    }
}
