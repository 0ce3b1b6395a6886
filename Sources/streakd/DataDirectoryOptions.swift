import ArgumentParser
import Foundation

/// Where `streakd` keeps its database and the local user's token.
struct DataDirectoryOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The data directory (env STREAKD_DATA_DIR).",
            discussion: "Default: $XDG_DATA_HOME/streakd, else $HOME/.local/share/streakd.",
            valueName: "dir"
        )
    )
    var dataDir: String?

    /// The chosen directory, created when missing.
    func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
        let path: String
        if let dataDir, !dataDir.isEmpty {
            path = dataDir
        } else if let value = environment["STREAKD_DATA_DIR"], !value.isEmpty {
            path = value
        } else if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            path = xdg + "/streakd"
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            path = home + "/.local/share/streakd"
        }
        let url = URL(fileURLWithPath: path, isDirectory: true)
        do {
            try FileManager.default.createDirectory(
                at: url,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw ValidationError("cannot create the data directory \(path): \(error.localizedDescription)")
        }
        return url
    }
}
