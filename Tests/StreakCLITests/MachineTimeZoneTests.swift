import StreakPOSIX
import Testing

@Suite("This machine's time zone, as an IANA name")
struct MachineTimeZoneTests {
    @Test(
        "the first source that names a known zone wins",
        arguments: [
            // (TZ, /etc/localtime's target, /etc/timezone, expected)
            ("America/New_York", "/usr/share/zoneinfo/Europe/Berlin", "Asia/Tokyo", "America/New_York"),
            (":Europe/Paris", nil, nil, "Europe/Paris"),
            ("/usr/share/zoneinfo/Asia/Kolkata", nil, nil, "Asia/Kolkata"),
            (nil, "/usr/share/zoneinfo/Europe/Berlin", "Asia/Tokyo", "Europe/Berlin"),
            (nil, "../usr/share/zoneinfo/posix/Australia/Sydney", nil, "Australia/Sydney"),
            ("", "/usr/share/zoneinfo/America/Sao_Paulo", nil, "America/Sao_Paulo"),
            ("Not/AZone", nil, "Pacific/Auckland\n", "Pacific/Auckland"),
            (nil, "/etc/some-copy", nil, "UTC"),
            (nil, nil, nil, "UTC"),
            // A POSIX rule or an offset in TZ names no IANA zone: the next source's zone.
            ("JST-9", "/usr/share/zoneinfo/Europe/Berlin", nil, "Europe/Berlin"),
            ("GMT+5", "/usr/share/zoneinfo/Europe/Berlin", nil, "Europe/Berlin"),
            ("UTC-03:00", nil, "Asia/Tokyo", "Asia/Tokyo"),
            ("GMT+5", nil, nil, "UTC"),
            ("GMT+0", nil, nil, "GMT+0"),
            ("Etc/GMT+5", nil, nil, "Etc/GMT+5"),
        ] as [(String?, String?, String?, String)]
    )
    func resolves(tz: String?, localtime: String?, timezoneFile: String?, expected: String) {
        #expect(MachineTimeZone.resolve(tz: tz, localtimeTarget: localtime, timezoneFile: timezoneFile) == expected)
    }

    @Test func theEnvironmentsZoneIsRead() {
        #expect(MachineTimeZone.identifier(environment: ["TZ": "Asia/Tokyo"]) == "Asia/Tokyo")
    }

    @Test(
        "the fixed zone of an offset: Etc/GMT counts the other way; none for half hours or past the range",
        arguments: [
            (-5 * 3_600, "Etc/GMT+5"), (9 * 3_600, "Etc/GMT-9"), (0, "Etc/UTC"), (14 * 3_600, "Etc/GMT-14"),
            (-12 * 3_600, "Etc/GMT+12"), (-13 * 3_600, nil), (15 * 3_600, nil), (19_800, nil),  // UTC+05:30
        ] as [(Int, String?)]
    )
    func fixedOffsetZone(seconds: Int, expected: String?) {
        #expect(MachineTimeZone.fixedOffsetZone(seconds: seconds) == expected)
        #expect(MachineTimeZone.zoneHint(seconds: seconds).hasPrefix("your region's IANA zone (e.g. Europe/Berlin)"))
        if let expected { #expect(MachineTimeZone.zoneHint(seconds: seconds).contains(", or \(expected) for UTC")) }
    }
}
