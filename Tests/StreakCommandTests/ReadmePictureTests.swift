import Foundation
import Testing

/// README.md and docs/CLI.md show what `streak --as-of 2025-06-15 heatmap` and `streak` print
/// after `sample --seed 7`: the same text as the golden files the CLI's output is compared with.
@Suite("README's pictures are the golden output")
struct ReadmePictureTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The output shown after each `$ COMMAND` line of the code block that holds `first`:
    /// the lines up to the next `$ ` line or the block's end, trailing blank lines dropped.
    static func transcript(in document: String, startingWith first: String) throws -> [String: String] {
        let lines = document.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: first), "no line '\(first)'")
        let end = try #require(lines[start...].firstIndex(of: "```"), "the block of '\(first)' never ends")
        var outputs: [String: String] = [:]
        var command: String?
        var output: [String] = []
        func flush() {
            guard let command else { return }
            while output.last?.isEmpty == true { output.removeLast() }
            outputs[command] = output.map { $0 + "\n" }.joined()
        }
        for line in lines[start..<end] {
            if line.hasPrefix("$ ") {
                flush()
                command = String(line.dropFirst(2))
                output = []
            } else {
                output.append(line)
            }
        }
        flush()
        return outputs
    }

    static func golden(_ name: String) throws -> String {
        try String(contentsOf: Golden.directory.appendingPathComponent(name + ".txt"), encoding: .utf8)
    }

    @Test func readmeHeatmapAndStreakAreTheGoldenOutput() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let shown = try Self.transcript(in: readme, startingWith: "$ streak --as-of 2025-06-15 heatmap")
        #expect(
            shown["streak --as-of 2025-06-15 heatmap"] == (try Self.golden("heatmap")),
            "README's heatmap differs from Golden/heatmap.txt"
        )
        #expect(
            shown["streak --as-of 2025-06-15 streak"] == (try Self.golden("streak")),
            "README's streak differs from Golden/streak.txt"
        )
        #expect(shown.count == 2)
    }

    @Test func readmeTodayIsTheGoldenOutput() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let shown = try Self.transcript(in: readme, startingWith: "$ streak --as-of 2025-06-15")
        #expect(
            shown["streak --as-of 2025-06-15"] == (try Self.golden("today")),
            "README's today view differs from Golden/today.txt"
        )
        #expect(shown.count == 1)
    }

    @Test func cliDocHeatmapIsTheGoldenOutput() throws {
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/CLI.md"), encoding: .utf8)
        // The picture is the block right after the sentence that names the command.
        let after = try #require(
            doc.range(of: "server prints (without colour; on a terminal the cells are GitHub greens):")
        )
        let rest = doc[after.upperBound...]
        let open = try #require(rest.range(of: "```\n"))
        let close = try #require(rest[open.upperBound...].range(of: "\n```"))
        let picture = String(rest[open.upperBound..<close.lowerBound]) + "\n"
        #expect(picture == (try Self.golden("heatmap")), "docs/CLI.md's heatmap differs from Golden/heatmap.txt")
    }
}
