import Foundation
import StreakCLI
import StreakCore
import StreakWire
import Testing

@Suite("JSON shapes (no server)")
struct JSONTests {
    @Test func serializesInOrderWithEscapes() {
        let value = JSONValue.object([
            ("b", .int(1)), ("a", .string("x\"y\\\n\u{1}")), ("c", .array([.null, .bool(true)])), ("d", .object([])),
        ])
        #expect(value.serialized(pretty: false) == #"{"b":1,"a":"x\"y\\\n\u0001","c":[null,true],"d":{}}"#)
        #expect(
            value.serialized() == """
                {
                  "b": 1,
                  "a": "x\\"y\\\\\\n\\u0001",
                  "c": [
                    null,
                    true
                  ],
                  "d": {}
                }
                """
        )
    }

    @Test func heatmapShapeParses() throws {
        let heatmap = Fixtures.heatmap(from: "2024-01-03", to: "2024-01-20") { _ in 1 }
        let text = WireJSON.heatmap(heatmap).serialized()
        let object = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["from"] as? String == "2024-01-03")
        #expect(object["week_start"] as? String == "monday")
        let weeks = try #require(object["weeks"] as? [[String: Any]])
        #expect(weeks.count == 3)
        let cells = try #require(weeks[0]["cells"] as? [Any])
        #expect(cells.count == 7)
        #expect(cells[0] is NSNull)
        #expect((cells[2] as? [String: Any])?["date"] as? String == "2024-01-03")
    }

    @Test func settingsShapeUsesNullForNoThreshold() {
        let settings = WireSettings(timeZone: "UTC", locale: "en_US", weekStart: .monday, minPercent: 0)
        #expect(
            WireJSON.settings(settings).serialized(pretty: false)
                == #"{"time_zone":"UTC","locale":"en_US","week_start":"monday","min_percent":null,"day_start":"00:00"}"#
        )
    }
}
