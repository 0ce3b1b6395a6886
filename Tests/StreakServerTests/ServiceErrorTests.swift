import StreakCore
import StreakFraming
import StreakStorage
import StreakWire
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
            (StorageError(.diskFull, "SQLite step failed (13): database or disk is full"), .resourceExhausted),
        ]
    )
    func storageDetailsStayInTheLog(error: StorageError, code: Status.Code) {
        let status = ServiceError.status(for: error)
        #expect(status.code == code)
        #expect(!status.message.contains("SQLite") && !status.message.contains("/") && !status.message.isEmpty)
    }

    @Test("a full disk says so")
    func diskFullSaysSo() {
        let status = ServiceError.status(
            for: StorageError(.diskFull, "SQLite step failed (13): database or disk is full")
        )
        #expect(status.code == .resourceExhausted && status.message.hasPrefix("disk full"))
    }

    @Test(
        "a storage error's reference always has 8 hexadecimal digits",
        arguments: [(UInt32(0x0997_9d98), "09979d98"), (0, "00000000"), (0xf, "0000000f"), (.max, "ffffffff")]
    )
    func referenceIsZeroPadded(value: UInt32, reference: String) {
        #expect(ServiceError.reference(value) == reference)
    }

    @Test("PostgreSQL's words about a duplicate reach neither the client nor the log")
    func duplicateDetailStaysOut() {
        let engine = EngineError(
            engine: "PostgreSQL",
            failure: .uniqueViolation,
            code: "23505",
            objects: ["constraint habits_by_name"],
            text: "ERROR: duplicate key value\nDETAIL: Key (user_id, name)=(1, Meditate) already exists.",
            textMayHoldUserData: true
        )
        let error = StorageError(.alreadyExists, "already exists", cause: engine)
        #expect(ServiceError.status(for: error) == Status(.alreadyExists, "already exists"))
        let logged = "\(error.logMetadata)"
        #expect(!logged.contains("Meditate"), "\(logged)")
        #expect(logged.contains("23505") && logged.contains("habits_by_name"), "\(logged)")
        #expect(error.loggableEngineText == nil)
    }

    @Test(
        "each engine failure has one code: only the passing ones are UNAVAILABLE",
        arguments: [
            (EngineFailure.uniqueViolation, StorageError.Code.alreadyExists),
            (.integrityViolation, .internalFailure), (.dataException, .internalFailure),
            (.statementRejected, .internalFailure), (.diskFull, .diskFull), (.corrupt, .corrupt),
            (.connectionLost, .io), (.busy, .io), (.other, .io),
        ]
    )
    func engineFailureCodes(failure: EngineFailure, code: StorageError.Code) {
        #expect(failure.code == code)
    }

    @Test("errors about the request keep their message")
    func requestErrorsKeepTheirMessage() {
        let status = ServiceError.status(for: StorageError(.notFound, "no habit with id 7"))
        #expect(status == Status(.notFound, "no habit with id 7"))
    }

    @Test("an error made from another keeps it as its cause, which is never sent")
    func causesAreKept() throws {
        let wire = WireHabit(
            id: 3,
            name: "Read",
            createdOn: try CivilDate(parsing: "2024-03-05"),
            archivedOn: try CivilDate(parsing: "2024-03-01")
        )
        #expect {
            _ = try Habit(wire)
        } throws: { error in
            guard let error = error as? ServiceError, let cause = error.cause as? CoreError else { return false }
            let status = ServiceError.status(for: error)
            return status.code == .invalidArgument && status.message == cause.message
        }
        let wrapped = StorageError(.invalidArgument, "outer", cause: CoreError(.invalidArgument, "inner"))
        #expect((wrapped.cause as? CoreError)?.message == "inner")
        #expect(wrapped == StorageError(.invalidArgument, "outer"), "the cause is not part of equality")
    }
}
