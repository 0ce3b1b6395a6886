import Foundation
import StreakTestSupport
import Testing

/// The committed pictures of the README's sample year are what `streak` makes of it now:
/// regenerated against a real streakd as scripts/generate-pictures.sh does, compared byte for byte.
@Suite("SVG and HTML golden files", .serialized)
struct CLIPictureGoldenTests {
    static let root = ReadmePictureTests.root

    /// File (from the repository's root), arguments.
    static let cases: [(String, [String])] = [
        ("docs/images/heatmap-light.svg", ["heatmap", "--format", "svg", "--theme", "light"]),
        ("docs/images/heatmap-dark.svg", ["heatmap", "--format", "svg", "--theme", "dark"]),
        ("docs/images/heatmap-colorblind.svg", ["heatmap", "--format", "svg", "--theme", "colorblind"]),
        ("Tests/StreakCommandTests/Golden/heatmap.svg", ["heatmap", "--format", "svg"]),
        ("Tests/StreakCommandTests/Golden/report.html", ["report"]),
        ("Tests/StreakCommandTests/Golden/report-dark.html", ["report", "--theme", "dark"]),
        ("Tests/StreakCommandTests/Golden/report-colorblind.html", ["report", "--theme", "colorblind"]),
        ("Tests/StreakCommandTests/Golden/heatmap-labels.json", ["--json", "heatmap", "--labels"]),
    ]

    @Test func picturesMatchTheCommittedFiles() throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        #expect(try cli.run(["sample", "--seed", "7"]).status == 0)
        for (path, arguments) in Self.cases {
            let output = try cli.run(arguments)
            #expect(output.status == 0, "streak \(arguments): \(output.stderr)")
            let expected = try? String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
            #expect(expected != nil, "missing \(path); run scripts/generate-pictures.sh")
            #expect(
                output.stdout == expected,
                "\(path) differs from streak \(arguments); run scripts/generate-pictures.sh and review"
            )
        }
    }

    @Test func readmeEmbedsTheCommittedPictures() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        for theme in ["light", "dark"] {
            #expect(readme.contains("docs/images/heatmap-\(theme).svg"), "README does not embed the \(theme) picture")
        }
    }
}
