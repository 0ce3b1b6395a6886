import FoundationEssentials

/// What a user name may be: 1 to 64 characters, none of them a space or a control character.
public enum UserName {
    /// The rule, as the error for a name that breaks it says.
    public static let rule = "a user name is 1 to 64 characters without spaces or control characters"

    /// Whether `name` follows the rule.
    public static func isValid(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64
            && name.unicodeScalars.allSatisfy { !$0.properties.isWhitespace && $0.value >= 0x21 }
    }
}

/// Many new users inserted in one transaction (`StreakStore.createUsers`): all of them or none.
///
/// SQLite runs in-process, so it checks and inserts a row at a time; PostgreSQL checks and inserts
/// a few thousand names per statement (`unnest` over arrays), a round trip for each chunk rather
/// than for each user. The names are valid and distinct (the caller checked).
struct UserBatch {
    let names: [String]
    /// The SHA-256 of each name's token.
    let hashes: [[UInt8]]
    /// The creation time, whole seconds (as stored).
    let createdAt: Date

    /// Names per PostgreSQL statement.
    static let chunk = 5000

    init(names: [String], hashes: [[UInt8]], createdAt: Date) {
        self.names = names
        self.hashes = hashes
        self.createdAt = Date(timeIntervalSince1970: createdAt.timeIntervalSince1970.rounded(.down))
    }

    /// Inserts every user in one transaction and returns their ids, in the order of `names`.
    /// - Throws: `.alreadyExists` with the index of the first name that exists; nothing is
    ///   inserted after any error.
    func insert(into connection: any SQLSession) throws(StorageError) -> [UserID] {
        // SQLite: a page cache that holds the whole batch (up to 256 MiB), so that the transaction,
        // which holds the write lock, does not spill pages to the log and write them again; halved
        // the transaction for 100,000 users. The connection's own size comes back afterwards.
        if connection.dialect == .sqlite,
            let cacheSize = try connection.query("PRAGMA cache_size").first?.first?.integer
        {
            return try connection.withPragma("cache_size", "-262144", restoring: String(cacheSize)) {
                () throws(StorageError) in try insertInTransaction(connection)
            }
        }
        return try insertInTransaction(connection)
    }

    private func insertInTransaction(_ connection: any SQLSession) throws(StorageError) -> [UserID] {
        try connection.query(connection.dialect.beginWrite)
        do throws(StorageError) {
            let ids = try connection.dialect.batchesStatements ? insertChunks(connection) : insertRows(connection)
            try connection.query("COMMIT")
            return ids
        } catch {
            connection.rollBack()
            throw error
        }
    }

    private var seconds: Int64 { Int64(createdAt.timeIntervalSince1970) }

    private static func exists(_ index: Int) -> StorageError {
        StorageError(.alreadyExists, "a user with that name already exists", item: index)
    }

    private func insertRows(_ connection: any SQLSession) throws(StorageError) -> [UserID] {
        var ids: [UserID] = []
        ids.reserveCapacity(names.count)
        for (index, name) in names.enumerated() {
            guard try connection.query("SELECT 1 FROM users WHERE name = ?", [.text(name)]).isEmpty else {
                throw Self.exists(index)
            }
            let rows = try connection.query(
                "INSERT INTO users (name, token_hash, created_at) VALUES (?, ?, ?) RETURNING id",
                [.text(name), .blob(hashes[index]), .integer(seconds)]
            )
            guard let id = rows.first?.first?.integer else { throw StorageError(.corrupt, "a new user has no id") }
            ids.append(id)
        }
        return ids
    }

    private func insertChunks(_ connection: any SQLSession) throws(StorageError) -> [UserID] {
        var position: [String: Int] = [:]
        position.reserveCapacity(names.count)
        for (index, name) in names.enumerated() { position[name] = index }
        // Every chunk's existing names first: the error names the first of them in `names`.
        var first: Int?
        for start in stride(from: 0, to: names.count, by: Self.chunk) {
            let chunk = names[start..<min(start + Self.chunk, names.count)]
            for row in try connection.query("SELECT name FROM users WHERE name = ANY(?::text[])", [.textArray(chunk)]) {
                if let name = row[0].text, let index = position[name] { first = min(first ?? index, index) }
            }
        }
        if let first { throw Self.exists(first) }
        var ids = [UserID](repeating: 0, count: names.count)
        for start in stride(from: 0, to: names.count, by: Self.chunk) {
            let range = start..<min(start + Self.chunk, names.count)
            let rows = try connection.query(
                """
                INSERT INTO users (name, token_hash, created_at)
                SELECT name, decode(hash, 'hex'), ?::bigint
                FROM unnest(?::text[], ?::text[]) WITH ORDINALITY AS batch (name, hash, position)
                ORDER BY position
                RETURNING id, name
                """,
                [.integer(seconds), .textArray(names[range]), .textArray(hashes[range].map(TokenHasher.hex))]
            )
            guard rows.count == range.count else {
                throw StorageError(.corrupt, "inserted \(rows.count) users of \(range.count)")
            }
            for row in rows {
                guard let id = row[0].integer, let name = row[1].text, let index = position[name] else {
                    throw StorageError(.corrupt, "a new user came back without its id or name")
                }
                ids[index] = id
            }
        }
        return ids
    }

}

extension SQLValue {
    /// A PostgreSQL array literal of `strings` (`{"a","b\\"c"}`), every element quoted with its
    /// backslashes and double quotes escaped; bound as text and cast in the SQL (`?::text[]`).
    static func textArray(_ strings: some Collection<String>) -> SQLValue {
        var literal = "{"
        for (index, string) in strings.enumerated() {
            if index > 0 { literal += "," }
            literal += "\""
            for character in string.unicodeScalars {
                if character == "\\" || character == "\"" { literal += "\\" }
                literal.unicodeScalars.append(character)
            }
            literal += "\""
        }
        return .text(literal + "}")
    }
}
