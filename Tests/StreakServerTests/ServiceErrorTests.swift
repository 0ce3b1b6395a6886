import StreakFraming
import StreakStorage
import Testing

@testable import StreakServer

@Suite("Errors that cross the wire")
struct ServiceErrorTests {
    @Test(
        "storage I/O and corruption reach the client without SQLite's message or a file path",
        arguments: [
            (
                StorageError(.io, "SQLite step failed (778): disk I/O error at /home/u/.local/share/streakd"),
                Status.Code.unavailable
            ),
            (StorageError(.corrupt, "SQLite prepare failed (11): database disk image is malformed"), .internal),
            (StorageError(.closed, "the store is closed"), .unavailable),
        ]
    )
    func storageDetailsStayInTheLog(error: StorageError, code: Status.Code) {
        let status = ServiceError.status(for: error)
        #expect(status.code == code)
        #expect(!status.message.contains("SQLite") && !status.message.contains("/") && !status.message.isEmpty)
    }

    @Test("errors about the request keep their message")
    func requestErrorsKeepTheirMessage() {
        let status = ServiceError.status(for: StorageError(.notFound, "no habit with id 7"))
        #expect(status == Status(.notFound, "no habit with id 7"))
    }
}
