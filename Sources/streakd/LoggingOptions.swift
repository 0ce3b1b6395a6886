import ArgumentParser
import Logging
import StreakServer

/// The log level of `streakd`'s structured logs on standard error.
struct LoggingOptions: ParsableArguments {
    @Option(help: "The lowest level logged to standard error: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .info

    /// Sends every logger to standard error at the chosen level, an entry a line.
    func bootstrap() {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = SingleLineLogHandler(StreamLogHandler.standardError(label: label))
            handler.logLevel = level
            return handler
        }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
