import Logging
import StreakStorage

extension StorageError {
    /// What a log line says about the error at the default levels: its code, its message (which
    /// holds no user data) and, for a failed statement, the engine's code, what it means and the
    /// schema objects it named. Never the engine's own words: PostgreSQL's quote the row they are
    /// about (`DETAIL: Key (user_id, name)=(1, Meditate) already exists.`), a habit name with it.
    var logMetadata: Logger.Metadata {
        var metadata: Logger.Metadata = ["code": "\(code)", "detail": "\(message)"]
        if let engine { metadata["engine"] = "\(engine)" }
        return metadata
    }

    /// The engine's own words where they cannot hold user data (SQLite's, which name schema
    /// objects and never a value), for a debug line; nil otherwise.
    var loggableEngineText: String? {
        guard let engine, !engine.textMayHoldUserData, !engine.text.isEmpty else { return nil }
        return engine.text
    }

    /// `logMetadata` of any error: a StorageError's, else only the error's type.
    static func logMetadata(of error: any Error) -> Logger.Metadata {
        (error as? StorageError)?.logMetadata ?? ["error": "\(type(of: error))"]
    }
}

extension StoreUpkeepReport {
    /// A warning when the upkeep starts failing (with the error's code and message, never the
    /// engine's words), a notice when it works again.
    func log(to logger: Logger) {
        if let failure {
            var metadata = failure.logMetadata
            metadata["upkeep"] = "\(upkeep.rawValue)"
            logger.warning("storage upkeep is failing; the server carries on and keeps trying", metadata: metadata)
        } else {
            logger.notice("storage upkeep works again", metadata: ["upkeep": "\(upkeep.rawValue)"])
        }
    }
}
