import Foundation

/// The shared cases of docs/vectors: the rules that the server, the Swift library and the Python
/// and C clients must apply alike, read by each language's tests from the one file.
public enum TestVectors {
    /// The file `docs/vectors/NAME` of this repository, decoded.
    public static func load<Value: Decodable>(_ name: String, as type: Value.Type = Value.self) throws -> Value {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/vectors/\(name)")
        return try JSONDecoder().decode(Value.self, from: Data(contentsOf: url))
    }

    /// docs/vectors/habit-names.json.
    public struct HabitNames: Decodable, Sendable {
        /// The start of the message for each reason (`length`, `blank`, `control`).
        public var messages: [String: String]
        /// The cases.
        public var cases: [Case]

        /// One name and whether, and why, it is refused.
        public struct Case: Decodable, Sendable {
            /// What the case is about.
            public var why: String
            var name: String
            var times: Int?
            var then: String?
            /// The reason it is refused (`length`, `blank`, `control`), nil when it is valid.
            public var refused: String?

            /// The name: `name` `times` times, then `then`.
            public var text: String { String(repeating: name, count: times ?? 1) + (then ?? "") }
        }

        /// The cases from the file.
        public static func load() throws -> HabitNames { try TestVectors.load("habit-names.json") }
    }

    /// docs/vectors/server-addresses.json.
    public struct ServerAddresses: Decodable, Sendable {
        /// Address texts and what they parse to.
        public var addresses: [Address]
        /// Host texts and whether they are this machine as written.
        public var loopback: [Host]

        /// One address text: its host, port and loopbackness, or nil ones when it is refused.
        public struct Address: Decodable, Sendable {
            /// The text given (`--server`, `STREAK_SERVER`).
            public var text: String
            /// The host it names (nil: refused).
            public var host: String?
            /// The port it names (nil: refused).
            public var port: Int?
            /// Whether the host is loopback (nil: refused).
            public var loopback: Bool?
            /// Why it is refused, in a few words (nil: accepted).
            public var error: String?
        }

        /// One host text and whether it is loopback.
        public struct Host: Decodable, Sendable {
            /// The host as written.
            public var host: String
            /// Whether it is this machine.
            public var loopback: Bool
        }

        /// The cases from the file.
        public static func load() throws -> ServerAddresses { try TestVectors.load("server-addresses.json") }
    }
}
