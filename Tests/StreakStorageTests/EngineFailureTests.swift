import StreakCore
import StreakTestSupport
import Testing

@testable import StreakStorage

/// Both engines' errors mean the same: one failure, one code, whichever engine refused.
@Suite struct EngineFailureTests {
    @Test(
        "PostgreSQL's SQLSTATEs",
        arguments: [
            ("23505", EngineFailure.uniqueViolation), ("23503", .integrityViolation), ("23502", .integrityViolation),
            ("23514", .integrityViolation), ("22001", .dataException), ("22P02", .dataException),
            ("42601", .statementRejected), ("42P01", .statementRejected), ("42501", .statementRejected),
            ("53100", .diskFull), ("XX001", .corrupt), ("XX002", .corrupt), ("", .connectionLost),
            ("08006", .connectionLost), ("57P01", .connectionLost), ("25006", .connectionLost),
            ("40001", .busy), ("40P01", .busy), ("55P03", .busy), ("57014", .busy), ("53200", .other),
            ("P0001", .other), ("XX000", .other),
        ]
    )
    func postgresStates(state: String, failure: EngineFailure) {
        #expect(EngineFailure.postgres(state) == failure)
    }

    @Test(
        "SQLite's extended result codes",
        arguments: [
            (Int32(2067), EngineFailure.uniqueViolation),  // SQLITE_CONSTRAINT_UNIQUE
            (1555, .uniqueViolation),  // SQLITE_CONSTRAINT_PRIMARYKEY
            (787, .integrityViolation),  // SQLITE_CONSTRAINT_FOREIGNKEY
            (1299, .integrityViolation),  // SQLITE_CONSTRAINT_NOTNULL
            (1811, .integrityViolation),  // SQLITE_CONSTRAINT_TRIGGER
            (20, .dataException),  // SQLITE_MISMATCH
            (18, .dataException),  // SQLITE_TOOBIG
            (1, .statementRejected),  // SQLITE_ERROR
            (13, .diskFull),  // SQLITE_FULL
            (11, .corrupt),  // SQLITE_CORRUPT
            (26, .corrupt),  // SQLITE_NOTADB
            (5, .busy),  // SQLITE_BUSY
            (261, .busy),  // SQLITE_BUSY_RECOVERY
            (6, .busy),  // SQLITE_LOCKED
            (10, .other),  // SQLITE_IOERR
            (3850, .other),  // SQLITE_IOERR_LOCK
            (8, .other),  // SQLITE_READONLY
        ]
    )
    func sqliteCodes(code: Int32, failure: EngineFailure) {
        #expect(EngineFailure.sqlite(code) == failure)
    }

    /// Makes habit names unique per user in the database itself, as a second server that
    /// created the same name a moment earlier would meet it, and refuses the name "boom" with a
    /// constraint the store does not know of.
    private static func constrain(_ fixture: StoreFixture) throws {
        switch fixture.engine {
        case .sqlite:
            let connection = try SQLiteConnection(path: fixture.sqlite.path)
            defer { connection.close() }
            try connection.execute(
                """
                CREATE UNIQUE INDEX habits_by_name ON habits (user_id, name);
                CREATE TRIGGER refuse_boom BEFORE INSERT ON habits WHEN NEW.name = 'boom'
                BEGIN SELECT RAISE(ABORT, 'boom refused'); END;
                """
            )
        case .postgres:
            try PostgresTestDatabase.psql(
                fixture.databaseURL!,
                """
                CREATE UNIQUE INDEX habits_by_name ON habits (user_id, name);
                CREATE FUNCTION refuse_boom() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN IF NEW.name = 'boom' THEN RAISE EXCEPTION 'boom refused' USING ERRCODE = 'check_violation';
                END IF; RETURN NEW; END $$;
                CREATE TRIGGER refuse_boom BEFORE INSERT ON habits FOR EACH ROW EXECUTE FUNCTION refuse_boom();
                """
            )
        }
    }

    @Test(
        "a unique violation is ALREADY_EXISTS and another constraint INTERNAL, on either engine",
        arguments: Engine.available
    )
    func constraintsMapAlike(engine: Engine) throws {
        let fixture = try StoreFixture(engine)
        let user = try fixture.store.createUser(name: "u").user.id
        try Self.constrain(fixture)
        _ = try fixture.habit("Meditate", for: user)
        let duplicate = fixture.write(.createHabit(name: "Meditate", createdOn: day("2024-01-01")), for: user)
        #expect(throws: StorageError.self) { try duplicate.get() }
        if case .failure(let error) = duplicate {
            #expect(error.code == .alreadyExists, "\(error)")
            #expect(error.rpcStatusCode == .alreadyExists)
            #expect(error.engine?.failure == .uniqueViolation)
            // Neither the message (which a client sees) nor the description (which logs show)
            // carries the engine's words, which may quote the name.
            #expect(!error.message.contains("Meditate") && !"\(error.engine!)".contains("Meditate"))
        }
        let refused = fixture.write(.createHabit(name: "boom", createdOn: day("2024-01-01")), for: user)
        #expect(throws: StorageError.self) { try refused.get() }
        if case .failure(let error) = refused {
            #expect(error.code == .internalFailure, "\(error)")
            #expect(error.rpcStatusCode == .internal)
            #expect(error.engine?.failure == .integrityViolation)
            #expect(error.engine?.text.contains("boom refused") == true)
        }
        // Nothing else of the batch suffered.
        _ = try fixture.habit("Read", for: user)
        #expect(try fixture.store.habits(of: user).map(\.name) == ["Meditate", "Read"])
    }
}
