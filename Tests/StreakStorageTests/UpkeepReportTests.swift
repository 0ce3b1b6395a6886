import Foundation
import StreakTestSupport
import Synchronization
import Testing

@testable import StreakStorage

/// The reports a store's handler receives about its upkeep.
final class UpkeepReports: Sendable {
    private let received = Mutex<[StoreUpkeepReport]>([])

    func append(_ report: StoreUpkeepReport) { received.withLock { $0.append(report) } }

    /// The reports so far, as "failed: UPKEEP" and "works: UPKEEP".
    var lines: [String] {
        received.withLock { $0.map { "\($0.failure == nil ? "works" : "failed"): \($0.upkeep.rawValue)" } }
    }

    /// Waits up to `seconds` for `line` to be among the reports, then returns them all.
    func await(_ line: String, seconds: Double = 10) -> [String] {
        let deadline = Date().addingTimeInterval(seconds)
        while !lines.contains(line) && Date() < deadline { usleep(10_000) }
        return lines
    }

    /// The failures' errors.
    var failures: [StorageError] { received.withLock { $0.compactMap(\.failure) } }
}

@Suite("Store upkeep reports")
struct UpkeepReporterTests {
    @Test("the first failure of a run and the first success after it are reported, each upkeep on its own")
    func reportsChangesOnly() {
        let reporter = UpkeepReporter()
        // Before a handler is set nothing is reported, nothing breaks, and nothing is held back:
        // a failure that goes on is reported at its next attempt.
        reporter.succeeded(.readChangeLog)
        reporter.failed(.pruneChangeLog, StorageError(.io, "before the handler"))
        let reports = UpkeepReports()
        reporter.setHandler { reports.append($0) }
        reporter.succeeded(.readChangeLog)
        reporter.failed(.pruneChangeLog, StorageError(.io, "first"))
        reporter.failed(.pruneChangeLog, StorageError(.io, "second"))
        reporter.failed(.announceCommits, StorageError(.io, "third"))
        reporter.succeeded(.pruneChangeLog)
        reporter.succeeded(.pruneChangeLog)
        reporter.failed(.pruneChangeLog, StorageError(.io, "fourth"))
        #expect(
            reports.lines == [
                "failed: pruning the change log", "failed: notifying the other servers of commits",
                "works: pruning the change log", "failed: pruning the change log",
            ]
        )
        #expect(reports.failures.map(\.message) == ["first", "third", "fourth"])
    }
}

/// Upkeep failing and recovering against a real PostgreSQL.
@Suite(.enabled(if: PostgresTestDatabase.serverURL != nil || PostgresTestDatabase.required))
struct PostgresUpkeepTests {
    @Test("a prune of the change log that fails is reported once, however often it fails, then its recovery")
    func pruneFailure() throws {
        let fixture = try StoreFixture(.postgres)
        let url = try #require(fixture.databaseURL)
        let connection = try PostgresConnection(url: url)
        defer { connection.close() }
        // Deleting from the log fails, as it would for a role that may not DELETE.
        try connection.execute(
            """
            CREATE FUNCTION refuse_delete() RETURNS trigger LANGUAGE plpgsql AS
                $$ BEGIN RAISE EXCEPTION 'deleting is refused here'; END $$;
            CREATE TRIGGER refuse_delete BEFORE DELETE ON change_log
                FOR EACH STATEMENT EXECUTE FUNCTION refuse_delete();
            INSERT INTO change_log (origin, payloads, created_at)
                VALUES ('log-old', '{"v2 log-old 1 - 1"}', now() - interval '10 minutes');
            """
        )
        let reports = UpkeepReports()
        let reporter = UpkeepReporter()
        reporter.setHandler { reports.append($0) }
        let listener = PostgresListener(
            url: url,
            origin: "upkeep-test",
            queue: .global(),
            pollInterval: .milliseconds(50),
            pruneInterval: .milliseconds(50),
            retention: .seconds(60),
            upkeep: reporter
        ) { _ in }
        defer { listener.stop() }

        #expect(reports.await("failed: pruning the change log").contains("failed: pruning the change log"))
        usleep(500_000)  // about ten more prunes, all failing
        #expect(reports.lines == ["failed: pruning the change log"])
        #expect(reports.failures.first?.engine?.code == "P0001", "the trigger's raise_exception")
        #expect(try connection.query("SELECT count(*) FROM change_log") == [[.integer(1)]])

        try connection.execute("DROP TRIGGER refuse_delete ON change_log")
        #expect(reports.await("works: pruning the change log").last == "works: pruning the change log")
        #expect(try connection.query("SELECT count(*) FROM change_log") == [[.integer(0)]])
    }

    @Test("a listener that cannot connect reports it once while it keeps trying, then that it listens again")
    func listenFailure() throws {
        // A database that does not exist yet: every connection fails until it is created.
        let database = try PostgresTestDatabase(createNow: false)
        let reports = UpkeepReports()
        let reporter = UpkeepReporter()
        reporter.setHandler { reports.append($0) }
        let listener = PostgresListener(url: database.url, origin: "upkeep-test", queue: .global(), upkeep: reporter) {
            _ in
        }
        defer { listener.stop() }
        usleep(2_500_000)  // the first try and two more, a second apart
        #expect(reports.lines == ["failed: listening for the other servers' changes"])
        #expect(reports.failures.first?.message.contains("does not exist") == true, "libpq's reason")

        try database.create()
        let works = "works: listening for the other servers' changes"
        #expect(reports.await(works).last == works)
    }

    @Test("a store reports that it cannot read the change log while its database does not answer, then recovers")
    func storeReportsAStalledDatabase() throws {
        let database = try PostgresTestDatabase()
        let (proxy, url) = try FreezableProxy.start(for: database.url)
        defer { proxy.stop() }
        let store = try PostgresStore(url: url, timeout: .seconds(1))
        defer { store.close() }
        let reports = UpkeepReports()
        store.onUpkeepReport { reports.append($0) }
        store.onExternalChange { _ in }

        proxy.freeze()
        let failed = "failed: reading the change log"
        #expect(reports.await(failed).contains(failed))
        proxy.thaw()
        let works = "works: reading the change log"
        #expect(reports.await(works).last == works)
    }
}
