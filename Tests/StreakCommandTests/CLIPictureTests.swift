import Foundation
import StreakTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `streak heatmap --format svg|html`, `--theme`, `-o FILE`, `--months`, `--labels` and
/// `streak report` against a real streakd with the README's sample year.
@Suite("streak heatmap pictures and report", .serialized)
struct CLIPictureTests {
    static func withSampleServer(_ body: (CLIRunner) throws -> Void) throws {
        let server = try ServerProcess.start()
        defer { server.stop() }
        let cli = CLIRunner(server: "127.0.0.1:\(server.port)", token: server.token)
        #expect(try cli.run(["sample", "--seed", "7"]).status == 0)
        try body(cli)
    }

    static func scratchDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("streak-pictures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    @Test func svgAndHtmlOnStandardOutputAndInAFile() throws {
        try Self.withSampleServer { cli in
            let svg = try cli.run(["heatmap", "--format", "svg"])
            #expect(svg.status == 0, "\(svg.stderr)")
            #expect(svg.stdout.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
            // 2024-07-01 ... 2025-06-15: 350 days, each a rect with its label.
            #expect(Self.count("data-date=", in: svg.stdout) == 350)
            #expect(Self.count("<title>June 15: ", in: svg.stdout) == 1)
            #expect(svg.stdout.contains("Current streak: 47 days, since 2025-04-30."))

            let directory = try Self.scratchDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = directory.appendingPathComponent("heatmap.svg")
            try "old".write(to: file, atomically: true, encoding: .utf8)
            let written = try cli.run(["heatmap", "--format", "svg", "-o", file.path])
            #expect(written.status == 0, "\(written.stderr)")
            #expect(written.stdout.isEmpty)
            #expect(try String(contentsOf: file, encoding: .utf8) == svg.stdout)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["heatmap.svg"])

            let dark = try cli.run(["heatmap", "--format", "html", "--theme", "dark"])
            #expect(dark.status == 0, "\(dark.stderr)")
            #expect(dark.stdout.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
            #expect(dark.stdout.contains("background: #0d1117"))
            #expect(!dark.stdout.contains("<table"))
        }
    }

    /// `-o` onto what is not a regular file writes into it (renamed over, `/dev/null` itself
    /// became a regular file when root ran `streak report -o /dev/null`), and onto a symbolic
    /// link replaces the file it points to, keeping the link.
    @Test func outputIntoAPipeAndThroughALink() throws {
        try Self.withSampleServer { cli in
            let directory = try Self.scratchDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let expected = try cli.run(["heatmap", "--format", "svg"]).stdout

            let pipe = directory.appendingPathComponent("pipe").path
            #expect(mkfifo(pipe, 0o600) == 0)
            let received = LockedText()
            let reader = Thread {
                // Opening for reading waits for the writer; reading ends when it closes.
                if let handle = FileHandle(forReadingAtPath: pipe) {
                    received.set(String(decoding: handle.readDataToEndOfFile(), as: UTF8.self))
                }
            }
            reader.start()
            let intoPipe = try cli.run(["heatmap", "--format", "svg", "-o", pipe])
            #expect(intoPipe.status == 0, "\(intoPipe.stderr)")
            #expect(received.wait(seconds: 20) == expected)
            var status = stat()
            #expect(lstat(pipe, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "the pipe was replaced")

            let target = directory.appendingPathComponent("target.svg")
            try "old".write(to: target, atomically: false, encoding: .utf8)
            let link = directory.appendingPathComponent("link.svg").path
            #expect(symlink(target.path, link) == 0)
            let throughLink = try cli.run(["heatmap", "--format", "svg", "-o", link])
            #expect(throughLink.status == 0, "\(throughLink.stderr)")
            #expect(lstat(link, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK, "the link was replaced")
            #expect(try String(contentsOf: target, encoding: .utf8) == expected)
        }
    }

    static func mode(_ path: String) -> String {
        var status = stat()
        guard stat(path, &status) == 0 else { return "missing" }
        return String(status.st_mode & 0o777, radix: 8)
    }

    /// `-o` gives a new file the mode `open` would (0666 less the umask), and a replaced file keeps
    /// its mode (and, for root, its owner and group): a 0600 report stays private. An export is
    /// 0600 either way. (The output was 0644 whatever the umask, and a replaced 0600 file became 0644.)
    @Test func outputModesFollowTheUmaskAndAReplacedFileKeepsItsOwn() throws {
        try Self.withSampleServer { cli in
            let directory = try Self.scratchDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
            for (umask, expected) in [("077", "600"), ("022", "644"), ("002", "664"), ("027", "640")] {
                let runs: [(String, [String])] = [
                    ("report-\(umask).html", ["report", "-o", path("report-\(umask).html")]),
                    ("heatmap-\(umask).svg", ["heatmap", "--format", "svg", "-o", path("heatmap-\(umask).svg")]),
                    ("heatmap-\(umask).html", ["heatmap", "--format", "html", "-o", path("heatmap-\(umask).html")]),
                ]
                for (name, arguments) in runs {
                    let output = try cli.run(arguments, umask: umask)
                    #expect(output.status == 0, "\(arguments): \(output.stderr)")
                    #expect(Self.mode(path(name)) == expected, "\(name) under umask \(umask)")
                }
                let export = try cli.run(["export", path("export-\(umask).json")], umask: umask)
                #expect(export.status == 0, "\(export.stderr)")
                #expect(Self.mode(path("export-\(umask).json")) == "600", "an export under umask \(umask)")
            }

            // Replaced files keep their mode, whatever the umask; through a link, the target's.
            for (name, kept) in [("private.html", 0o600), ("shared.html", 0o640), ("open.svg", 0o664)] {
                try "old".write(toFile: path(name), atomically: false, encoding: .utf8)
                chmod(path(name), mode_t(kept))
            }
            #expect(symlink(path("private.html"), path("link.html")) == 0)
            for (umask, arguments) in [
                ("022", ["report", "-o", path("private.html")]), ("077", ["report", "-o", path("shared.html")]),
                ("077", ["heatmap", "--format", "svg", "-o", path("open.svg")]),
                ("000", ["report", "-o", path("link.html")]),
            ] {
                let output = try cli.run(arguments, umask: umask)
                #expect(output.status == 0, "\(arguments): \(output.stderr)")
            }
            #expect(Self.mode(path("private.html")) == "600")
            #expect(Self.mode(path("shared.html")) == "640")
            #expect(Self.mode(path("open.svg")) == "664")
            #expect(try String(contentsOfFile: path("private.html"), encoding: .utf8).hasPrefix("<!DOCTYPE html>"))

            // An export over a readable file makes it private.
            chmod(path("open.svg"), 0o644)
            #expect(try cli.run(["export", path("open.svg")], umask: "022").status == 0)
            #expect(Self.mode(path("open.svg")) == "600")

            // Root may give the file back to its owner and group.
            guard getuid() == 0 else { return }
            #expect(chown(path("shared.html"), 4242, 4343) == 0)
            #expect(try cli.run(["report", "-o", path("shared.html")]).status == 0)
            var status = stat()
            #expect(stat(path("shared.html"), &status) == 0 && status.st_uid == 4242 && status.st_gid == 4343)
            #expect(status.st_mode & 0o777 == 0o640)
        }
    }

    @Test func reportHasEverySection() throws {
        try Self.withSampleServer { cli in
            let directory = try Self.scratchDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = directory.appendingPathComponent("report.html")
            let report = try cli.run(["report", "-o", file.path, "--theme", "colorblind"])
            #expect(report.status == 0, "\(report.stderr)")
            let html = try String(contentsOf: file, encoding: .utf8)
            for part in [
                "<h1>Habits up to 2025-06-15</h1>", "<h2 id=\"streak-heading\">Streak</h2>",
                "<h2 id=\"month-heading\">June 2025</h2>", "<h2 id=\"weekdays-heading\">Completions by weekday</h2>",
                "<span class=\"streak-current\">47 days</span>", "aria-current=\"date\"", "#0c2d5e",
            ] {
                #expect(html.contains(part), "the report lacks \(part)")
            }
            #expect(Self.count("data-date=", in: html) == 350)
        }
    }

    @Test func badInputIsAClearErrorAndWritesNothing() throws {
        try Self.withSampleServer { cli in
            let directory = try Self.scratchDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = directory.appendingPathComponent("out.svg").path
            let cases: [([String], Int32, String)] = [
                (["heatmap", "--format", "svg", "--theme", "sepia", "-o", file], 64, "unknown --theme 'sepia'"),
                (["heatmap", "--format", "png", "-o", file], 64, "unknown --format 'png'"),
                (["report", "--theme", "neon", "-o", file], 64, "unknown --theme 'neon'"),
                (["--json", "heatmap", "--format", "svg"], 64, "--json prints JSON"),
                (["heatmap", "--months", "3", "--from", "2025-01-01"], 64, "--from or --months"),
                (["heatmap", "--months", "0"], 64, "--months must be"),
                (["heatmap", "--format", "svg", "-o", directory.path], 73, "is a directory"),
                (["report", "-o", directory.path + "/"], 73, "is a directory"),
                (["report", "-o", directory.path + "/missing/report.html"], 73, "No such file or directory"),
                (["report", "-o", ""], 64, "-o needs a file name"),
            ]
            for (arguments, status, message) in cases {
                let output = try cli.run(arguments)
                #expect(output.status == status, "\(arguments): \(output.stderr)")
                #expect(
                    output.stderr.hasPrefix("streak: ") && output.stderr.contains(message),
                    "\(arguments): \(output.stderr)"
                )
                #expect(output.stdout.isEmpty, "\(arguments) printed \(output.stdout.prefix(80))")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)

            // A directory this user may not write to (root may write anywhere: nothing to check then).
            guard getuid() != 0 else { return }
            let locked = directory.appendingPathComponent("locked")
            try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false)
            try "old".write(to: locked.appendingPathComponent("report.html"), atomically: false, encoding: .utf8)
            chmod(locked.path, 0o555)
            defer { chmod(locked.path, 0o755) }
            let refused = try cli.run(["report", "-o", locked.appendingPathComponent("report.html").path])
            #expect(refused.status == 73, "\(refused.stderr)")
            #expect(refused.stderr.contains("Permission denied"), "\(refused.stderr)")
            #expect(try String(contentsOf: locked.appendingPathComponent("report.html"), encoding: .utf8) == "old")
        }
    }

    @Test func monthsAndLabels() throws {
        try Self.withSampleServer { cli in
            let json = try cli.run(["--json", "heatmap", "--months", "3", "--labels"])
            #expect(json.status == 0, "\(json.stderr)")
            #expect(json.stdout.contains("\"from\": \"2025-04-01\""))
            #expect(json.stdout.contains("\"to\": \"2025-06-15\""))
            // 2025-04-01 ... 2025-06-15: 76 days, each with the server's label.
            #expect(Self.count("\"accessibility_label\": ", in: json.stdout) == 76)
            #expect(json.stdout.contains("\"accessibility_label\": \"June 15: 20% completed, 1 of 5 habits\""))
            let plain = try cli.run(["--json", "heatmap", "--months", "3", "--to", "2025-05-31"])
            #expect(plain.stdout.contains("\"from\": \"2025-03-01\""))
            #expect(!plain.stdout.contains("accessibility_label"))
        }
    }
}

/// Text handed from another thread.
private final class LockedText: @unchecked Sendable {
    private let condition = NSCondition()
    private var text: String?

    func set(_ value: String) {
        condition.withLock {
            text = value
            condition.broadcast()
        }
    }

    func wait(seconds: Double) -> String? {
        condition.withLock {
            let deadline = Date().addingTimeInterval(seconds)
            while text == nil && condition.wait(until: deadline) {}
            return text
        }
    }
}
