import ArgumentParser
import Foundation
import StreakCLI
import StreakClient
import StreakCore
import StreakWire

/// `streak export [FILE]`: everything of the account as one JSON file (docs/EXPORT.md).
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write all your data (habits, completions, skips, rest periods, settings) as JSON.",
        discussion: """
            The format is versioned and documented in docs/EXPORT.md; `streak import` reads it back \
            exactly. The file is written whole (mode 0600) or not at all.

            Examples:
              streak export habits.json
              streak export > habits.json
            """
    )
    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The file to write (default: standard output).", valueName: "file"))
    var file: String?

    func run() async throws {
        try await global.run(usesToday: false) { context in
            let progress = TransferProgress(verb: "exporting", quiet: context.quiet)
            let archive = try await AccountExport.fetch(context.client, progress: progress)
            progress.finish()
            let text = ExportFormat.encode(archive, exportedAt: Date().ISO8601Format())
            if let file {
                try OutputFile.write(text, to: file, ownerOnly: true)
                let summary =
                    "exported \(Plural.of(archive.habits.count, "habit")), "
                    + "\(Plural.of(archive.recordCount, "record")) to \(file)\n"
                try context.emit(
                    json: .object([
                        ("file", .string(file)), ("habits", .int(Int64(archive.habits.count))),
                        ("records", .int(Int64(archive.recordCount))),
                    ]),
                    text: summary
                )
            } else {
                try StandardOutput.write(text)
            }
        }
    }
}

/// Reads the whole account through ExportData.
enum AccountExport {
    static func fetch(_ client: StreakClient, progress: TransferProgress? = nil) async throws -> ImportArchive {
        var pages: [WireExportDataPage] = []
        var total = 0
        var records = 0
        for try await page in try await client.exportData() {
            if pages.isEmpty { total = Int(page.totalRecords) }
            records += page.completions.count + page.skips.count
            pages.append(page)
            progress?.update(habits: 0, totalHabits: pages[0].habits.count, records: records, totalRecords: total)
        }
        return ImportArchive(pages: pages)
    }
}

/// `streak import FILE [--dry-run]`: a Streakd export, or Loop Habit Tracker's CSV archive.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Bring in a Streakd JSON export or a Loop Habit Tracker CSV export (zip or folder).",
        discussion: """
            Habits are matched by name or created; importing the same file twice changes nothing. \
            A file with a problem (a date that does not exist, a newer format, a name too long) stops \
            before anything is written, with the file, line and field named. Records the server \
            cannot apply (a day outside its habit's days) are listed and skipped.

            Examples:
              streak import habits.json --dry-run
              streak import habits.json
              streak import "Loop Habits CSV 2024-05-01.zip"
            """
    )
    @OptionGroup var global: GlobalOptions
    @Argument(
        help: ArgumentHelp(
            "The export file (- for standard input), Loop's zip archive or its unpacked folder.",
            valueName: "file"
        )
    )
    var file: String
    @Flag(help: "Print what would change, and change nothing.") var dryRun = false

    func run() async throws {
        try await global.run(usesToday: false) { context in
            let archive = try ImportSource.read(file, today: try await context.today())
            for note in archive.notes where !context.quiet {
                FileHandle.standardError.write(Data("streak: note: \(note)\n".utf8))
            }
            if dryRun {
                let current = try await AccountExport.fetch(context.client)
                let plan = ImportPlan(incoming: archive, current: current, today: try await context.today())
                try context.emit(json: ImportReport.json(plan), text: "dry run: nothing was changed\n" + plan.summary)
                return
            }
            let report = try await ImportReport.run(archive, client: context.client, quiet: context.quiet)
            for line in report.errorLines.prefix(20) {
                FileHandle.standardError.write(Data("streak: \(file): \(line)\n".utf8))
            }
            let unshown = report.refusedCount - min(report.errorLines.count, 20)
            if unshown > 0 {
                let unlisted = report.omitted > 0 ? " (\(report.omitted) of them not listed by the server)" : ""
                FileHandle.standardError.write(Data("streak: ... and \(unshown) more\(unlisted)\n".utf8))
            }
            try context.emit(json: report.json, text: report.summary)
        }
    }
}

/// What an import file is, by its name and contents.
enum ImportSource {
    static func read(_ path: String, today: CivilDate) throws(CLIFailure) -> ImportArchive {
        var isDirectory: ObjCBool = false
        guard path == "-" || FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CLIFailure(.badInput, "\(path): no such file or folder")
        }
        let name = (path as NSString).lastPathComponent
        do {
            // A folder, a zip, or the Habits.csv of an unpacked folder: Loop's export.
            if isDirectory.boolValue || path.lowercased().hasSuffix(".zip") || name == "Habits.csv" {
                return try LoopArchiveReader.read(contentsOf: path, today: today)
            }
            let data = try contents(path)
            if name.lowercased().hasSuffix(".csv") { throw csvProblem(path, data: data) }
            return try ExportFormat.decode(Array(data), file: path)
        } catch let error as ImportError {
            throw CLIFailure(.badInput, "\(error) (nothing was imported)")
        } catch {
            throw CLIFailure(.badInput, "\(path): \(error) (nothing was imported)")
        }
    }
}

extension ImportSource {
    /// The bytes of `path`, `-` for standard input; read to the end, so a pipe (`/dev/stdin`,
    /// `<(...)`) works as well as a file.
    static func contents(_ path: String) throws(ImportError) -> Data {
        guard let handle = path == "-" ? FileHandle.standardInput : FileHandle(forReadingAtPath: path) else {
            throw ImportError(file: path, message: "cannot be opened: \(String(cString: strerror(errno)))")
        }
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            throw ImportError(file: path, message: "cannot be read: \(error.localizedDescription)")
        }
    }

    /// Why a CSV file other than a Habits.csv cannot be imported by itself, pointing to what can.
    static func csvProblem(_ path: String, data: Data) -> ImportError {
        let firstLine = String(decoding: data.prefix(200), as: UTF8.self).split(whereSeparator: \.isNewline).first
        let header = firstLine.map { $0.hasPrefix("\u{FEFF}") ? $0.dropFirst() : $0[...] } ?? ""
        let folder =
            "import Loop's export as its zip, or as the folder it unpacks to (Habits.csv with a folder per habit)"
        if header.hasPrefix("Position,Name") {
            return ImportError(
                file: path,
                message: "looks like Loop's Habits.csv under another name; \(folder), with this file named Habits.csv"
            )
        }
        return ImportError(
            file: path,
            message: "is a CSV file but not a Habits.csv; streak import reads a Streakd JSON export, or: \(folder)"
        )
    }
}

/// Sends an import in batches and adds up what the server answered (`ImportTally`).
enum ImportReport {
    static func run(_ archive: ImportArchive, client: StreakClient, quiet: Bool) async throws -> ImportTally {
        var tally = ImportTally(habitCount: archive.habits.count)
        let progress = TransferProgress(verb: "importing", quiet: quiet)
        defer { progress.finish() }
        var sent = 0
        var habitsSent = Set<Int>()
        for batch in archive.batches() {
            let response = try await client.importData(batch.request, deadline: .seconds(120))
            tally.add(response, batch: batch)
            sent += batch.request.habits.reduce(0) { $0 + $1.completions.count + $1.skips.count }
            habitsSent.formUnion(batch.habitIndexes)
            progress.update(
                habits: habitsSent.count,
                totalHabits: archive.habits.count,
                records: sent,
                totalRecords: archive.recordCount
            )
        }
        return tally
    }

    static func json(_ plan: ImportPlan) -> JSONValue {
        .object([
            ("dry_run", .bool(true)), ("habits_to_create", .array(plan.created.map(JSONValue.string))),
            ("habits_matched", .int(Int64(plan.matched))), ("completions_to_add", .int(Int64(plan.completions))),
            ("skips_to_add", .int(Int64(plan.skips))), ("rest_periods_to_add", .int(Int64(plan.restPeriods))),
            ("settings_change", .bool(plan.settingsChange)), ("refused", .int(Int64(plan.refused))),
        ])
    }
}
