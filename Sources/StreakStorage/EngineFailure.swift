internal import CSQLite

/// What a failed statement means, whichever engine ran it. Each connection reduces its engine's
/// own error (SQLite's result code, PostgreSQL's SQLSTATE) to one of these, and `code` maps them
/// to the store's codes in this one place: the same failure gets the same status on either
/// engine, and a status tells the client whether sending the request again can help.
public enum EngineFailure: String, Hashable, Sendable, CaseIterable {
    /// A unique index refused a second row: two writers created the same thing at once.
    case uniqueViolation
    /// Another constraint refused the row (a foreign key, NOT NULL, CHECK): the store checks
    /// these before it writes, so the database holds what the server did not expect.
    case integrityViolation
    /// A value the engine cannot take (out of range, malformed, too long).
    case dataException
    /// The engine refused the statement itself (a syntax error, an unknown table or column, a
    /// missing privilege): the server's SQL does not fit this database.
    case statementRejected
    /// No room on the engine's disk.
    case diskFull
    /// The engine found its data damaged.
    case corrupt
    /// The connection to the engine broke, or the engine is shutting down or not yet accepting.
    case connectionLost
    /// Something else held what the statement needed (a lock, a deadlock, a serialisation
    /// conflict, a cancelled statement): the same statement may succeed a moment later.
    case busy
    /// Anything else (an I/O error, no memory): taken as passing.
    case other

    /// The store's code for the failure. Only the failures that may pass are UNAVAILABLE (`io`:
    /// "try again later"); a failure that the same request meets again is not, or a client that
    /// retries UNAVAILABLE would retry it forever.
    public var code: StorageError.Code {
        switch self {
        case .uniqueViolation: .alreadyExists
        case .integrityViolation, .dataException, .statementRejected: .internalFailure
        case .diskFull: .diskFull
        case .corrupt: .corrupt
        case .connectionLost, .busy, .other: .io
        }
    }

    /// The failure a PostgreSQL SQLSTATE means; an empty state (libpq's own error: no answer
    /// from the server) is a lost connection.
    static func postgres(_ state: String) -> EngineFailure {
        switch state {
        case "23505": return .uniqueViolation
        case "XX001", "XX002": return .corrupt
        case "53100": return .diskFull
        case "", "57P01", "57P02", "57P03", "25006": return .connectionLost
        case "55P03", "57014": return .busy
        default: break
        }
        switch state.prefix(2) {
        case "23": return .integrityViolation
        case "22": return .dataException
        case "42": return .statementRejected
        case "08": return .connectionLost
        case "40": return .busy
        default: return .other
        }
    }

    /// SQLite's SQLITE_CONSTRAINT_PRIMARYKEY and SQLITE_CONSTRAINT_UNIQUE (macros Swift does not import).
    private static let sqliteUniqueCodes: Set<Int32> = [SQLITE_CONSTRAINT | 6 << 8, SQLITE_CONSTRAINT | 8 << 8]

    /// The failure a SQLite extended result code means.
    static func sqlite(_ extendedCode: Int32) -> EngineFailure {
        switch extendedCode & 0xFF {
        case SQLITE_CONSTRAINT:
            sqliteUniqueCodes.contains(extendedCode) ? .uniqueViolation : .integrityViolation
        case SQLITE_MISMATCH, SQLITE_TOOBIG: .dataException
        case SQLITE_ERROR, SQLITE_RANGE, SQLITE_MISUSE, SQLITE_AUTH: .statementRejected
        case SQLITE_FULL: .diskFull
        case SQLITE_CORRUPT, SQLITE_NOTADB: .corrupt
        case SQLITE_BUSY, SQLITE_LOCKED, SQLITE_SCHEMA, SQLITE_INTERRUPT: .busy
        default: .other
        }
    }
}

/// The engine's account of a failed statement, kept as its `StorageError`'s `cause`: what it
/// means, the engine's code, and the engine's own words.
///
/// Its description, which logs may show, holds the engine, the code and the names of the
/// schema objects involved, never the engine's words: PostgreSQL's quote the values of the row
/// (`DETAIL: Key (user_id, name)=(1, Meditate) already exists.`), and so can hold a habit name.
public struct EngineError: Error, Hashable, Sendable, CustomStringConvertible {
    /// "SQLite" or "PostgreSQL".
    public let engine: String
    /// What the failure means.
    public let failure: EngineFailure
    /// The SQLSTATE (PostgreSQL, e.g. `23505`) or the extended result code (SQLite, e.g. `2067`).
    public let code: String
    /// The constraint, table or column the engine named (PostgreSQL's fields; schema names only).
    public let objects: [String]
    /// The engine's own message.
    public let text: String
    /// Whether `text` may quote stored values, user data among them (PostgreSQL's does; SQLite's
    /// names only schema objects and never a bound value).
    public let textMayHoldUserData: Bool

    /// Creates an account of a failure.
    public init(
        engine: String,
        failure: EngineFailure,
        code: String,
        objects: [String] = [],
        text: String,
        textMayHoldUserData: Bool
    ) {
        self.engine = engine
        self.failure = failure
        self.code = code
        self.objects = objects
        self.text = text
        self.textMayHoldUserData = textMayHoldUserData
    }

    /// The engine, the code, the failure and the schema objects, without the engine's words.
    public var description: String {
        "\(engine) \(code) \(failure.rawValue)" + (objects.isEmpty ? "" : " (\(objects.joined(separator: ", ")))")
    }
}
