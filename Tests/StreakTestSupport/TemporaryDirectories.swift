import Foundation

/// The temporary directories a test process made, removed when it exits.
///
/// Every server a test starts gets a data directory of its own, and a full run starts
/// hundreds: without this they stayed behind in the temporary directory after every run.
/// They are removed at exit rather than when their server stops, because tests restart
/// servers on a directory after the first server is gone. Set `STREAKD_TEST_KEEP_DIRS=1`
/// to keep them, for example to read a server's `streakd.log` after a failure.
enum TemporaryDirectories {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var made: [String] = []
    private static let removalAtExit: Void = {
        atexit { TemporaryDirectories.removeAll() }
    }()

    /// Records `url` for removal when the process exits.
    static func track(_ url: URL) {
        _ = removalAtExit
        lock.withLock { made.append(url.path) }
    }

    private static func removeAll() {
        if ProcessInfo.processInfo.environment["STREAKD_TEST_KEEP_DIRS"] == "1" { return }
        let paths = lock.withLock { made }
        for path in paths {
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}
