import ArgumentParser
import StreakCLI
import StreakClient

/// `streak server`: what GetServerInfo says, for whoever runs the server.
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server",
        abstract: "Show the server: version, uptime, storage, connections, users in memory, failing upkeep.",
        discussion: """
            Storage upkeep is the work no request waits for (on PostgreSQL: following the other \
            servers, pruning the change log; on SQLite: copying the write-ahead log into the \
            database); each job that is failing now is listed with since \
            when and why. The exit status is 0 either way: read `storage_upkeep_failing` of \
            --json to alert on it.

            Examples:
              streak server
              streak --json server
            """
    )
    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.run(usesToday: false) { context in
            let info = try await context.client.serverInfo()
            try context.emit(json: WireJSON.serverInfo(info), text: ServerInfoRenderer.render(info))
        }
    }
}
