import Foundation
import StreakCore
import StreakStorage
import StreakTransport
import Testing

@testable import StreakServer

@Suite("Token cache")
struct TokenCacheTests {
    static func user(_ id: UserID) -> UserID { id }

    static func wrongToken(_ index: Int) -> Substring {
        let hex = String(index, radix: 16)
        return Substring("stk_" + String(repeating: "0", count: 64 - hex.count) + hex)
    }

    @Test("many refused tokens never evict an accepted one, and their own count stays bounded")
    func refusedTokensCannotEvictUsers() {
        let cache = TokenCache(ttl: .seconds(60), capacity: 4, rejectedCapacity: 16)
        let valid = Substring("stk_" + String(repeating: "a", count: 64))
        cache.remember(valid, .user(Self.user(7)))
        for index in 0..<1000 { cache.remember(Self.wrongToken(index), .rejected) }
        guard case .user(let user) = cache.lookup(valid) else {
            Issue.record("the valid token was evicted")
            return
        }
        #expect(user == 7)
        #expect(cache.counts.accepted == 1 && cache.counts.rejected <= 16)
        if case .rejected = cache.lookup(Self.wrongToken(999)) {} else { Issue.record("the last refusal is forgotten") }
        #expect(cache.lookup(Self.wrongToken(5000)) == nil)
    }

    @Test("a token accepted after a refusal is no longer refused, and expired entries are misses")
    func acceptanceReplacesRefusalAndEntriesExpire() throws {
        let token = Self.wrongToken(1)
        let cache = TokenCache(ttl: .seconds(60))
        cache.remember(token, .rejected)
        cache.remember(token, .user(Self.user(3)))
        guard case .user = cache.lookup(token) else {
            Issue.record("still refused")
            return
        }
        let clock = ManualClock()
        let short = TokenCache(ttl: .seconds(5), clock: clock)
        short.remember(token, .user(Self.user(3)))
        short.remember(Self.wrongToken(2), .rejected)
        clock.advance(by: .seconds(4))
        #expect(short.lookup(token) != nil && short.lookup(Self.wrongToken(2)) != nil, "alive until the TTL")
        clock.advance(by: .seconds(1))
        #expect(short.lookup(token) == nil && short.lookup(Self.wrongToken(2)) == nil)
    }

    @Test("a full accepted cache drops expired entries before it drops live ones")
    func fullCacheDropsExpiredFirst() {
        let cache = TokenCache(ttl: .seconds(60), capacity: 2)
        cache.remember(Self.wrongToken(1), .user(Self.user(1)))
        cache.remember(Self.wrongToken(2), .user(Self.user(2)))
        cache.remember(Self.wrongToken(3), .user(Self.user(3)))  // nothing expired: emptied, then added
        #expect(cache.counts.accepted == 1)
    }

    @Test("only well-formed tokens get past the service's first check")
    func wellFormedTokens() {
        #expect(TokenHasher.isWellFormed(Self.wrongToken(1)))
        #expect(!TokenHasher.isWellFormed("stk_wrong"))
        #expect(!TokenHasher.isWellFormed("stk_" + String(repeating: "A", count: 64)))
        #expect(!TokenHasher.isWellFormed(String(repeating: "x", count: 65_535)))
    }

    @Test(
        "the shape check byte by byte: the prefix, 64 lowercase hex digits, nothing else",
        arguments: [
            ("stk_" + String(repeating: "0", count: 64), true),
            ("stk_" + String(repeating: "f", count: 64), true),
            ("stk_" + String(repeating: "9a", count: 32), true),
            ("stk_" + String(repeating: "0", count: 63), false),
            ("stk_" + String(repeating: "0", count: 65), false),
            ("stk-" + String(repeating: "0", count: 64), false),
            ("STK_" + String(repeating: "0", count: 64), false),
            ("stk_" + String(repeating: "0", count: 63) + "g", false),
            ("stk_" + String(repeating: "0", count: 63) + "/", false),
            ("stk_" + String(repeating: "0", count: 63) + ":", false),
            ("stk_" + String(repeating: "0", count: 63) + "`", false),
            ("stk_" + String(repeating: "0", count: 62) + "é", false),  // 68 bytes, 67 characters
            ("", false),
        ]
    )
    func tokenShape(token: String, wellFormed: Bool) {
        #expect(TokenHasher.isWellFormed(token) == wellFormed)
        // A bridged or sliced string (not necessarily contiguous) gets the same answer.
        #expect(TokenHasher.isWellFormed(String(Substring(token))) == wellFormed)
    }

    @Test("the last accepted user outlives the TTL (GetServerInfo's fallback) but not a refusal")
    func lastAcceptedUserOutlivesTheTTLButNotARefusal() {
        let clock = ManualClock()
        let cache = TokenCache(ttl: .seconds(2), clock: clock)
        let token = Self.wrongToken(3)
        #expect(cache.lastAcceptedUser(token) == nil, "never accepted")
        cache.remember(token, .user(Self.user(9)))
        clock.advance(by: .seconds(3600))
        #expect(cache.lookup(token) == nil, "expired for every other use")
        #expect(cache.lastAcceptedUser(token) == 9)
        cache.remember(token, .rejected)
        #expect(cache.lastAcceptedUser(token) == nil, "refused since: revoked")
    }

    @Test("an acceptance holds until its entry expires, an accepted token is refused, or the cache is emptied")
    func acceptanceHoldsUntilExpiryRefusalOrRemoval() throws {
        let clock = ManualClock()
        let cache = TokenCache(ttl: .seconds(2), clock: clock)
        let token = Self.wrongToken(7)
        let other = Self.wrongToken(8)
        #expect(cache.find(token) == nil)
        cache.remember(token, .user(Self.user(7)))
        cache.remember(other, .user(Self.user(8)))
        guard case .accepted(let acceptance) = cache.find(token) else {
            Issue.record("the remembered token is not accepted")
            return
        }
        #expect(acceptance.user == 7 && cache.holds(acceptance))
        clock.advance(by: .milliseconds(1999))
        #expect(cache.holds(acceptance), "alive until the TTL")
        clock.advance(by: .milliseconds(1))
        #expect(!cache.holds(acceptance), "expired with its entry")

        // Found again after a new check: a refusal of a token never accepted changes nothing...
        cache.remember(token, .user(Self.user(7)))
        guard case .accepted(let renewed) = cache.find(token) else {
            Issue.record("the checked-again token is not accepted")
            return
        }
        cache.remember(Self.wrongToken(9), .rejected)
        #expect(cache.holds(renewed))
        // ...a refusal of an accepted one (another user's, even) ends every acceptance found before.
        cache.remember(other, .rejected)
        #expect(!cache.holds(renewed))
        if case .rejected = cache.find(other) {} else { Issue.record("the refused token is not refused") }

        guard case .accepted(let again) = cache.find(token) else {
            Issue.record("the first token is no longer accepted")
            return
        }
        #expect(cache.holds(again))
        cache.removeAll()
        #expect(!cache.holds(again), "emptied")
        #expect(cache.find(token) == nil)
    }

    @Test("an acceptance ends when a full cache drops its entry, so a later refusal is not missed")
    func acceptanceEndsWhenAFullCacheDropsItsEntry() throws {
        let clock = ManualClock()
        let cache = TokenCache(ttl: .seconds(2), capacity: 1, clock: clock)
        let first = Self.wrongToken(11)
        cache.remember(first, .user(Self.user(1)))
        guard case .accepted(let acceptance) = cache.find(first) else {
            Issue.record("not accepted")
            return
        }
        // A second user's token finds the cache full of live entries: it empties it.
        cache.remember(Self.wrongToken(12), .user(Self.user(2)))
        #expect(cache.find(first) == nil, "dropped")
        // Refused now, with no entry left to show it was accepted: the acceptance must not hold.
        cache.remember(first, .rejected)
        #expect(!cache.holds(acceptance))
    }
}
