import Foundation
import StreakCore
import StreakFraming
import StreakTestSupport
import StreakWire
import Testing

/// Starts a real streakd for one test, with a connection that carries the local user's token.
struct ServerHarness {
    let server: ServerProcess
    let connection: TestConnection
    let token: String

    init(extraArguments: [String] = []) throws {
        server = try ServerProcess.start(extraArguments: extraArguments)
        guard let token = server.token else {
            throw TestSupportError("streakd wrote no token into \(server.dataDirectory.path)")
        }
        self.token = token
        connection = try server.connect()
    }

    /// A typed call with the local user's token.
    func call<Response: WireMessage>(
        _ method: WireMethod,
        _ request: some WireMessage,
        as type: Response.Type = Response.self
    ) throws -> Response {
        try connection.call(method, request, token: token, as: type)
    }

    /// The status of a call with the local user's token.
    func status(_ method: WireMethod, _ request: some WireMessage) throws -> Status {
        try connection.status(of: method, request, token: token)
    }

    /// Creates a habit and returns it.
    func createHabit(_ name: String, on date: CivilDate) throws -> WireHabit {
        let response: WireCreateHabitResponse = try call(
            .createHabit,
            WireCreateHabitRequest.with {
                $0.name = name
                $0.createdOn = date
            }
        )
        return try #require(response.habit)
    }

    /// Records a completion and returns the answer.
    @discardableResult
    func record(_ habitID: Int64, _ date: CivilDate, asOf: CivilDate? = nil) throws -> WireCompletionResponse {
        try call(
            .recordCompletion,
            WireRecordCompletionRequest.with {
                $0.habitId = habitID
                $0.date = date
                $0.asOf = asOf
            }
        )
    }

    /// Stops the server and removes its data directory.
    func finish() {
        connection.close()
        server.stop()
        try? FileManager.default.removeItem(at: server.dataDirectory)
    }
}

extension WireMessage {
    /// A message built by setting fields on an empty one.
    static func with(_ body: (inout Self) throws -> Void) rethrows -> Self {
        var message = Self()
        try body(&message)
        return message
    }
}

/// `CivilDate` from a literal in tests.
func day(_ text: String) -> CivilDate {
    try! CivilDate(parsing: text)
}
