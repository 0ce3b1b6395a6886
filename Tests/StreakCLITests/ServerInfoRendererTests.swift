import StreakCLI
import StreakWire
import Testing

@Suite("streak server: GetServerInfo as text and JSON (no server)")
struct ServerInfoRendererTests {
    static let failing = WireGetServerInfoResponse(
        version: "0.1.0",
        uptimeSeconds: 3 * 86_400 + 4 * 3_600 + 59,
        storage: "postgres",
        requestsTotal: 4_512,
        errorsTotal: 1,
        connectionsCurrent: 3,
        connectionsTotal: 120,
        protocolVersion: 1,
        usersHeld: 42,
        usersEvicted: 2,
        userMemoryBytes: 1_677_722,  // 1.6 MiB
        userMemoryBudgetBytes: 256 << 20,
        changeNoticesTotal: 17,
        storageUpkeepFailing: [
            WireStorageUpkeepFailure(
                job: "prune_change_log",
                description: "pruning the change log",
                failingSinceUnixSeconds: 1_795_000_000,
                error: "io",
                detail: "PostgreSQL query failed (P0001)",
                engineCode: "P0001"
            ),
            // A job this client does not know, from a newer server, without a time or a detail.
            WireStorageUpkeepFailure(job: "something_new", error: "closed"),
        ]
    )

    @Test("a failing upkeep: each job with since when (UTC) and why; sizes and durations in their units")
    func failingUpkeepAsText() {
        #expect(
            ServerInfoRenderer.render(Self.failing) == """
                version:       0.1.0 (protocol 1)
                uptime:        3 d 4 h
                storage:       postgres
                connections:   3 open, 120 served
                requests:      4512 (1 error)
                users held:    42, 1.6 MiB of 256 MiB (2 evicted, 0 dropped)
                other servers: 17 changes taken
                upkeep:        2 jobs failing
                  pruning the change log, since 2026-11-18 11:06:40 UTC: PostgreSQL query failed (P0001)
                  something_new: closed

                """
        )
    }

    @Test("all working, no budget")
    func workingAsText() {
        var info = Self.failing
        info.storageUpkeepFailing = []
        info.userMemoryBudgetBytes = 0
        info.userMemoryBytes = 512
        let text = ServerInfoRenderer.render(info)
        #expect(text.contains("users held:    42, 512 B no budget (2 evicted, 0 dropped)\n"), "\(text)")
        #expect(text.hasSuffix("upkeep:        working\n"))
    }

    @Test(
        "durations: the two largest units",
        arguments: [(Int64(0), "0 s"), (59, "59 s"), (61, "1 min 1 s"), (3_600, "1 h 0 min"), (90_061, "1 d 1 h")]
    )
    func durations(seconds: Int64, expected: String) {
        #expect(
            ServerInfoRenderer.render(WireGetServerInfoResponse(uptimeSeconds: seconds)).contains(
                "uptime:        \(expected)\n"
            )
        )
    }

    @Test("JSON: the proto's names, the failure's time in ISO 8601 UTC, null for what is absent")
    func failingUpkeepAsJSON() {
        let json = WireJSON.serverInfo(Self.failing).serialized(pretty: false)
        #expect(
            json.hasPrefix(#"{"version":"0.1.0","protocol_version":1,"uptime_seconds":273659,"storage":"postgres""#)
        )
        #expect(
            json.hasSuffix(
                #""storage_upkeep_failing":[{"job":"prune_change_log","description":"pruning the change log","#
                    + #""failing_since":"2026-11-18T11:06:40Z","error":"io","detail":"PostgreSQL query failed (P0001)","#
                    + #""engine_code":"P0001"},{"job":"something_new","description":"","failing_since":null,"#
                    + #""error":"closed","detail":"","engine_code":null}]}"#
            ),
            "\(json)"
        )
    }
}
