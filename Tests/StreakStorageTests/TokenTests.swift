import Foundation
import StreakStorage
import Testing

@Suite("Tokens and users")
struct TokenTests {
    @Test("a token authenticates its user until revoked; the database holds only its hash")
    func tokens() throws {
        let fixture = try StoreFixture()
        let (alice, token) = try fixture.store.createUser(name: "alice")
        let (bob, _) = try fixture.store.createUser(name: "bob")
        #expect(token.hasPrefix("stk_") && token.count == 68)
        #expect(try fixture.store.authenticate(token: token) == alice.id)
        #expect(try fixture.store.authenticate(token: "stk_" + String(repeating: "0", count: 64)) == nil)
        #expect(try fixture.store.authenticate(token: "") == nil)
        #expect(try fixture.store.authenticate(token: "' OR 1=1 --") == nil)
        let file = try Data(contentsOf: URL(fileURLWithPath: fixture.store.path))
        #expect(file.range(of: Data(token.utf8)) == nil)
        try fixture.store.revokeUser(name: "alice")
        #expect(try fixture.store.authenticate(token: token) == nil)
        #expect(try fixture.store.users().map(\.revoked) == [true, false])
        #expect(try fixture.store.users().map(\.id) == [alice.id, bob.id])
        #expect(throws: StorageError.self) { try fixture.store.createUser(name: "bob") }
        #expect(throws: StorageError.self) { try fixture.store.revokeUser(name: "carol") }
    }

    @Test("the local user is created once and its token file is private")
    func localUser() throws {
        let fixture = try StoreFixture()
        let token = try #require(try LocalUser.ensure(store: fixture.store, dataDirectory: fixture.directory))
        let path = fixture.directory + "/token"
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == token + "\n")
        #expect(try LocalUser.ensure(store: fixture.store, dataDirectory: fixture.directory) == nil)
        #expect(try fixture.store.authenticate(token: token) != nil)
    }
}
