import Foundation
import StreakStorage
import Testing

@Suite("Tokens and users")
struct TokenTests {
    @Test("a token authenticates its user until revoked; the database holds only its hash", arguments: Engine.available)
    func tokens(engine: Engine) throws {
        let fixture = try StoreFixture(engine)
        let (alice, token) = try fixture.store.createUser(name: "alice")
        let (bob, _) = try fixture.store.createUser(name: "bob")
        #expect(token.hasPrefix("stk_") && token.count == 68)
        #expect(try fixture.store.authenticate(token: token) == alice.id)
        #expect(try fixture.store.authenticate(token: "stk_" + String(repeating: "0", count: 64)) == nil)
        #expect(try fixture.store.authenticate(token: "") == nil)
        #expect(try fixture.store.authenticate(token: "' OR 1=1 --") == nil)
        // Neither the database nor its WAL (where fresh writes sit) holds the raw token.
        for suffix in ["", "-wal"] where engine == .sqlite {
            let file = try Data(contentsOf: URL(fileURLWithPath: fixture.sqlite.path + suffix))
            #expect(!file.isEmpty || suffix == "-wal")
            #expect(file.range(of: Data(token.utf8)) == nil, "the token is in \(SQLiteStore.fileName)\(suffix)")
        }
        #expect(try fixture.store.revokeUser(name: "alice"))
        #expect(try fixture.store.revokeUser(name: "alice") == false, "already revoked: nothing changes")
        #expect(try fixture.store.authenticate(token: token) == nil)
        #expect(try fixture.store.users().map(\.revoked) == [true, false])
        #expect(try fixture.store.users().map(\.id) == [alice.id, bob.id])
        #expect(throws: StorageError.self) { try fixture.store.createUser(name: "bob") }
        #expect(throws: StorageError.self) { try fixture.store.revokeUser(name: "carol") }
    }

    @Test("the local user is created once and its token file is private", arguments: Engine.available)
    func localUser(engine: Engine) throws {
        let fixture = try StoreFixture(engine)
        let token = try #require(try LocalUser.ensure(store: fixture.store, dataDirectory: fixture.directory))
        let path = fixture.directory + "/token"
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == token + "\n")
        #expect(try LocalUser.ensure(store: fixture.store, dataDirectory: fixture.directory) == nil)
        #expect(try fixture.store.authenticate(token: token) != nil)
    }

    @Test("a leftover token.tmp of any mode does not make the token file readable by others")
    func staleTemporaryFile() throws {
        let fixture = try StoreFixture()
        let temporary = fixture.directory + "/token.tmp"
        #expect(FileManager.default.createFile(atPath: temporary, contents: Data("old".utf8)))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: temporary)
        let token = try #require(try LocalUser.ensure(store: fixture.store, dataDirectory: fixture.directory))
        let path = fixture.directory + "/token"
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == token + "\n")
        #expect(!FileManager.default.fileExists(atPath: temporary))
    }

    @Test(
        "a local user whose token file is missing gets a new token; the old one stops working",
        arguments: Engine.available
    )
    func missingTokenFileIsReissued(engine: Engine) throws {
        let fixture = try StoreFixture(engine)
        // A crash after the commit and before the file: the user exists, the file does not.
        let old = try fixture.store.createUser(name: LocalUser.name).token
        let path = fixture.directory + "/token"
        #expect(!FileManager.default.fileExists(atPath: path))
        let token = try #require(try LocalUser.ensure(store: fixture.store, dataDirectory: fixture.directory))
        #expect(token != old)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == token + "\n")
        #expect(try fixture.store.authenticate(token: old) == nil)
        #expect(try fixture.store.authenticate(token: token) != nil)
        // With the file in place nothing changes; a revoked local user is not revived.
        #expect(try LocalUser.ensure(store: fixture.store, dataDirectory: fixture.directory) == nil)
        try fixture.store.revokeUser(name: LocalUser.name)
        try FileManager.default.removeItem(atPath: path)
        #expect(try LocalUser.ensure(store: fixture.store, dataDirectory: fixture.directory) == nil)
        #expect(throws: StorageError.self) { try fixture.store.issueToken(name: LocalUser.name) }
        let reason = try LocalUser.missingTokenFileReason(store: fixture.store, dataDirectory: fixture.directory)
        #expect(reason?.contains("is revoked") == true, "\(reason ?? "nil")")
    }

    @Test("a token file the server does not write has its reason for the log")
    func missingTokenFileReasons() throws {
        let fixture = try StoreFixture()
        let directory = fixture.directory
        // Users made before the first start: no local user.
        _ = try fixture.store.createUser(name: "zed")
        #expect(try LocalUser.ensure(store: fixture.store, dataDirectory: directory) == nil)
        let none = try LocalUser.missingTokenFileReason(store: fixture.store, dataDirectory: directory)
        #expect(none?.contains("there is no user \"local\"") == true, "\(none ?? "nil")")
        // A shared store keeps the local user's token.
        _ = try fixture.store.createUser(name: LocalUser.name)
        let shared = try LocalUser.missingTokenFileReason(
            store: fixture.store,
            dataDirectory: directory,
            reissue: false
        )
        #expect(shared?.contains("copy the token file") == true, "\(shared ?? "nil")")
        // Otherwise the next start writes it: nothing to explain.
        #expect(try LocalUser.missingTokenFileReason(store: fixture.store, dataDirectory: directory) == nil)
    }
}
