import Foundation
import StreakStorage
import Testing

/// `createUsers`: many users in one transaction, on each engine.
@Suite("Users in bulk")
struct BulkUserTests {
    /// Names that an array literal or a quoting mistake would break, and plain ones past a
    /// PostgreSQL chunk (5,000 names per statement).
    static func names(_ count: Int) -> [String] {
        [#"quote"d"#, #"back\slash"#, "comma,name", "{braces}", "NULL", "Zoë-Łódź", "日本語", "'single'"]
            + (0..<count).map { "user\($0)" }
    }

    @Test("every user is created in order, with a token that authenticates it", arguments: Engine.available)
    func creates(engine: Engine) throws {
        let fixture = try StoreFixture(engine)
        let (before, _) = try fixture.store.createUser(name: "existing")
        let names = Self.names(12_000)
        let created = try fixture.store.createUsers(names: names)
        #expect(created.map(\.user.name) == names)
        #expect(Set(created.map(\.token)).count == names.count)
        let ids = created.map(\.user.id)
        #expect(ids == ids.sorted() && ids.first! > before.id && Set(ids).count == ids.count)
        #expect(Set(created.map(\.user.createdAt)).count == 1)
        #expect(created.allSatisfy { !$0.user.revoked && $0.token.hasPrefix("stk_") && $0.token.count == 68 })
        for index in [0, 1, 2, 3, 4, 5, 6, 7, 8, 5_000, 5_007, 5_008, names.count - 1] {
            #expect(try fixture.store.authenticate(token: created[index].token) == created[index].user.id)
        }
        let stored = try fixture.store.users()
        #expect(stored.map(\.name) == ["existing"] + names)
        #expect(Array(stored.dropFirst()) == created.map(\.user))
        #expect(try fixture.store.createUsers(names: []).isEmpty)
    }

    @Test(
        "a name that exists, is given twice or is invalid fails the whole batch, naming its index",
        arguments: Engine.available
    )
    func allOrNothing(engine: Engine) throws {
        let fixture = try StoreFixture(engine)
        _ = try fixture.store.createUser(name: "taken")
        let names = Self.names(11_000)
        let cases: [(names: [String], code: StorageError.Code, item: Int)] = [
            (names + ["taken"], .alreadyExists, names.count),
            (Array(names.prefix(10_500)) + ["taken"] + Array(names.suffix(500)), .alreadyExists, 10_500),
            (["taken"] + names, .alreadyExists, 0),
            (names + [names[3]], .alreadyExists, names.count),
            (names + ["has space"], .invalidArgument, names.count),
            (["ok", "", "fine"], .invalidArgument, 1),
            (["ok", String(repeating: "x", count: 65)], .invalidArgument, 1),
            (["ok", "tab\there"], .invalidArgument, 1),
        ]
        for (batch, code, item) in cases {
            do {
                _ = try fixture.store.createUsers(names: batch)
                Issue.record("a batch with a bad name at \(item) was accepted")
            } catch {
                #expect(error.code == code)
                #expect(error.item == item)
            }
            #expect(try fixture.store.users().map(\.name) == ["taken"])
        }
        // The store is usable afterwards: no transaction was left open.
        #expect(try fixture.store.createUsers(names: ["after"]).count == 1)
        #expect(try fixture.store.createUser(name: "later").user.name == "later")
    }
}
