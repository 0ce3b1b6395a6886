import Foundation
public import StreakCore

/// Reads Loop Habit Tracker's CSV export ("Loop Habits CSV 2024-05-01.zip", or that archive
/// unpacked) into an `ImportArchive`: Habits.csv, and each habit's "001 Name/Checkmarks.csv".
///
/// Loop's manual checks become completions and its skips skips; automatic checks, unchecked and
/// unknown days become nothing and are counted in `notes`. docs/LOOP-IMPORT.md has the columns
/// of each Loop version, the mapping, and what stops an import (an `ImportError` naming the
/// file, line and field) or is skipped with a note.
///
/// `today` is the importing user's day: an archived habit with no entries is archived from it.
public enum LoopArchiveReader {
    /// Reads the export at `path`: a folder (or the Habits.csv in it), or a ZIP archive.
    /// Errors name files as `path` joined with their place in the folder, or their path inside
    /// the archive.
    public static func read(contentsOf path: String, today: CivilDate) throws(ImportError) -> ImportArchive {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ImportError(file: path, message: "does not exist")
        }
        if isDirectory.boolValue {
            return try readFolder(path, today: today)
        }
        if (path as NSString).lastPathComponent == "Habits.csv" {
            return try readFolder((path as NSString).deletingLastPathComponent, today: today)
        }
        return try read(zip: try fileBytes(path, shownAs: path), name: path, today: today)
    }

    /// Reads a ZIP archive's bytes; `name` names the archive in errors about it.
    public static func read(zip bytes: [UInt8], name: String, today: CivilDate) throws(ImportError) -> ImportArchive {
        let zip = try ZipReader(bytes: bytes, name: name)
        return try read(paths: zip.entries.map(\.path), name: name, prefix: "", today: today) {
            path throws(ImportError) in
            guard let contents = try zip.contents(ofPath: path) else {
                throw ImportError(file: name, field: path, message: "is not in the archive")
            }
            return contents
        }
    }

    /// Reads an export's files, keyed by their path inside it ("Habits.csv",
    /// "001 Meditate/Checkmarks.csv"); `name` names the export in errors about it as a whole.
    public static func read(
        files: [String: [UInt8]],
        name: String,
        today: CivilDate
    ) throws(ImportError) -> ImportArchive {
        try read(paths: Array(files.keys), name: name, prefix: "", today: today) { path throws(ImportError) in
            guard let contents = files[path] else {
                throw ImportError(file: name, field: path, message: "is not in the export")
            }
            return contents
        }
    }

    // MARK: - The export's layout

    /// Finds Habits.csv (at the top, or in the one folder that holds the export) and the habits'
    /// folders beside it, reads them and maps each habit.
    static func read(
        paths: [String],
        name: String,
        prefix: String,
        today: CivilDate,
        load: (String) throws(ImportError) -> [UInt8]
    ) throws(ImportError) -> ImportArchive {
        let root = try exportRoot(paths, name: name)
        let habitsPath = root + "Habits.csv"
        var notes: [String] = []

        var folderOfPosition: [Int: String] = [:]
        for path in paths.sorted() where path.hasPrefix(root) {
            let rest = path.dropFirst(root.count)
            let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[1] == "Checkmarks.csv" else { continue }
            let folder = String(parts[0])
            let digits = folder.prefix { $0.isPlainDigit }
            guard !digits.isEmpty, digits.count <= 9, let position = Int(digits),
                folder.count == digits.count || folder.dropFirst(digits.count).first == " "
            else {
                notes.append(
                    "\(folder)/Checkmarks.csv: left out; its folder does not start with a habit's position (001)"
                )
                continue
            }
            if let other = folderOfPosition[position] {
                throw ImportError(
                    file: prefix + path,
                    message: "a second folder for the habit at position \(position) (the first is '\(other)')"
                )
            }
            folderOfPosition[position] = folder
        }

        let rows = try LoopHabitsFile.parse(try load(habitsPath), file: prefix + habitsPath)
        let positions = Set(rows.map(\.position))
        for (position, folder) in folderOfPosition.sorted(by: { $0.key < $1.key }) where !positions.contains(position) {
            throw ImportError(
                file: prefix + root + folder + "/Checkmarks.csv",
                message:
                    "Habits.csv has no habit at position \(position); the export is incomplete or mixed with another"
            )
        }

        var habits: [HabitHistory] = []
        var taken: Set<String> = []
        for row in rows {
            var entries: [LoopEntryRow]?
            var file = prefix + habitsPath
            if let folder = folderOfPosition[row.position] {
                let path = root + folder + "/Checkmarks.csv"
                file = prefix + path
                entries = try LoopCheckmarksFile.parse(try load(path), file: file)
            }
            let name = uniqueName(row.name, taken: taken)
            taken.insert(name)
            var mapping = LoopHabitMapping(row: row, entries: entries, file: file, today: today, name: name)
            let (habit, habitNotes) = try mapping.map()
            habits.append(habit)
            notes += habitNotes
        }
        return ImportArchive(habits: habits, notes: notes)
    }

    /// The folder prefix ("" or "Loop Habits CSV 2024-05-01/") of the shallowest Habits.csv.
    static func exportRoot(_ paths: [String], name: String) throws(ImportError) -> String {
        let candidates = paths.filter { path in
            (path == "Habits.csv" || path.hasSuffix("/Habits.csv")) && !path.hasPrefix("__MACOSX/")
        }
        let depth = { (path: String) in path.split(separator: "/").count }
        guard let shallowest = candidates.map(depth).min() else {
            throw ImportError(
                file: name,
                message: "has no Habits.csv: it is not Loop Habit Tracker's CSV export (Settings, Export as CSV)"
            )
        }
        let roots = candidates.filter { depth($0) == shallowest }.sorted()
        guard roots.count == 1 else {
            throw ImportError(
                file: name,
                message: "holds several exports (\(roots.joined(separator: ", "))); import them one at a time"
            )
        }
        return String(roots[0].dropLast("Habits.csv".count))
    }

    /// `name`, or `name (2)`, `name (3)` ... when an earlier habit took it (cut to 200 characters).
    static func uniqueName(_ name: String, taken: Set<String>) -> String {
        guard taken.contains(name) else { return name }
        var number = 2
        while true {
            let suffix = " (\(number))"
            let room = LoopHabitsFile.maximumNameLength - TextLength.of(suffix)
            let candidate = String(String.UnicodeScalarView(name.unicodeScalars.prefix(room))) + suffix
            if !taken.contains(candidate) { return candidate }
            number += 1
        }
    }

    // MARK: - Files on disk

    private static func readFolder(_ folder: String, today: CivilDate) throws(ImportError) -> ImportArchive {
        let paths = try folderPaths(folder)
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        return try read(paths: paths, name: folder, prefix: prefix, today: today) { path throws(ImportError) in
            try fileBytes(prefix + path, shownAs: prefix + path)
        }
    }

    /// The Habits.csv and Checkmarks.csv files of a folder, two levels down (three when the
    /// export sits in a folder of its own), as paths relative to it.
    private static func folderPaths(_ folder: String) throws(ImportError) -> [String] {
        let wanted: Set = ["Habits.csv", "Checkmarks.csv"]
        var paths: [String] = []
        func walk(_ relative: String, depth: Int) throws(ImportError) {
            let absolute = relative.isEmpty ? folder : (folder as NSString).appendingPathComponent(relative)
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: absolute)
            } catch {
                throw ImportError(file: absolute, message: "cannot be listed: \(error.localizedDescription)")
            }
            for name in names.sorted() {
                let path = relative.isEmpty ? name : relative + "/" + name
                var isDirectory: ObjCBool = false
                _ = FileManager.default.fileExists(
                    atPath: (folder as NSString).appendingPathComponent(path),
                    isDirectory: &isDirectory
                )
                if isDirectory.boolValue {
                    if depth < 2 { try walk(path, depth: depth + 1) }
                } else if wanted.contains(name) {
                    paths.append(path)
                }
            }
        }
        try walk("", depth: 0)
        return paths
    }

    private static func fileBytes(_ path: String, shownAs shown: String) throws(ImportError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ImportError(file: shown, message: "cannot be read")
        }
        return [UInt8](data)
    }
}
