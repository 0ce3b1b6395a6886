import Dispatch
import StreakStorage
import StreakWire
import Testing

@testable import StreakServer
@testable import StreakTransport

@Suite("What the fast path remembers of a connection")
struct ConnectionMemoTests {
    static let token = "stk_" + String(repeating: "a", count: 64)

    @Test("one memo per responder, made on first use")
    func oneMemoPerResponder() {
        let first = Responder(executor: DispatchQueue(label: "test")) {}
        let second = Responder(executor: DispatchQueue(label: "test")) {}
        let memo = ConnectionMemo.of(first)
        #expect(ConnectionMemo.of(first) === memo)
        #expect(ConnectionMemo.of(second) !== memo)
    }

    @Test("methods alternating, repeated and unknown each get their own answer")
    func methodsAreNeverMixedUp() {
        let memo = ConnectionMemo()
        let paths = [
            WireMethod.getHeatmap.rawValue, WireMethod.getHeatmap.rawValue, WireMethod.recordCompletion.rawValue,
            "/streak.v1.Streaks/Nothing", WireMethod.getHeatmap.rawValue, WireMethod.getStreak.rawValue,
            // The same text in another string's storage.
            String(decoding: Array(WireMethod.getStreak.rawValue.utf8), as: UTF8.self),
            // Same length as a known path, one letter changed.
            "/streak.v1.Streaks/GetHeatmaq",
        ]
        for path in paths {
            #expect(memo.method(path) == MethodTable.method(path), "\(path)")
        }
        // More methods than it remembers, in turn and back again.
        let many = WireMethod.allCases.map(\.rawValue)
        #expect(many.count > ConnectionMemo.methodCapacity)
        for path in many + many.reversed() + many {
            #expect(memo.method(path) == MethodTable.method(path), "\(path)")
        }
    }

    @Test("an authentication is used only for the same value, and only while the cache's acceptance holds")
    func authenticationNeedsTheSameValueAndAHoldingAcceptance() throws {
        let clock = ManualClock()
        let tokens = TokenCache(ttl: .seconds(2), clock: clock)
        let value = "Bearer " + Self.token
        let token = value.dropFirst(7)
        tokens.remember(token, .user(42))
        guard case .accepted(let acceptance) = tokens.find(token) else {
            Issue.record("not accepted")
            return
        }
        let memo = ConnectionMemo()
        #expect(memo.authentication(for: value, in: tokens) == nil, "nothing remembered yet")
        memo.authentication = .init(authorization: value, token: token, acceptance: acceptance)
        #expect(memo.authentication(for: value, in: tokens)?.acceptance.user == 42)
        let copy = String(decoding: Array(value.utf8), as: UTF8.self)
        #expect(memo.authentication(for: copy, in: tokens)?.acceptance.user == 42, "equal text in other storage")
        let other = "Bearer " + String(repeating: "a", count: 67) + "b"
        #expect(other.utf8.count == value.utf8.count)
        #expect(memo.authentication(for: other, in: tokens) == nil, "another token of the same length")
        #expect(memo.authentication(for: "Basic abc", in: tokens) == nil)
        // Canonically equivalent text is `==`, but not the same credential: byte for byte only.
        let kelvin = "\u{212A}"
        #expect(kelvin == "K" && kelvin.utf8.count == 3)
        let remembered = "Bearer K" + String(repeating: "a", count: 10)
        memo.authentication = .init(authorization: remembered, token: remembered.dropFirst(7), acceptance: acceptance)
        #expect(memo.authentication(for: remembered, in: tokens) != nil)
        #expect(memo.authentication(for: "Bearer " + kelvin + String(repeating: "a", count: 10), in: tokens) == nil)
        memo.authentication = .init(authorization: value, token: token, acceptance: acceptance)

        tokens.remember(Substring("stk_" + String(repeating: "b", count: 64)), .user(7))
        tokens.remember(Substring("stk_" + String(repeating: "b", count: 64)), .rejected)
        #expect(memo.authentication(for: value, in: tokens) == nil, "an accepted token was refused since")

        guard case .accepted(let renewed) = tokens.find(token) else {
            Issue.record("no longer accepted")
            return
        }
        memo.authentication = .init(authorization: value, token: token, acceptance: renewed)
        #expect(memo.authentication(for: value, in: tokens) != nil)
        clock.advance(by: .seconds(2))
        #expect(memo.authentication(for: value, in: tokens) == nil, "expired with the cache's entry")
    }
}
