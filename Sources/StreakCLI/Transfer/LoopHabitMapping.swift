import Foundation
import StreakCore

/// One Loop habit, its Habits.csv row and Checkmarks.csv rows, as a `HabitHistory` with
/// notes on what was left out (docs/LOOP-IMPORT.md, "From Loop's entries to Streakd's days").
struct LoopHabitMapping {
    let row: LoopHabitRow
    /// Nil when the export has no Checkmarks.csv for the habit.
    let entries: [LoopEntryRow]?
    /// The Checkmarks.csv's name in errors.
    let file: String
    let today: CivilDate
    /// The name the habit takes (another habit may have had Loop's name first).
    let name: String

    /// How the values of one habit are read.
    private enum Reading {
        case yesNo
        case measurable(atMost: Bool, target: Double, unit: String)
        /// An export without types whose values are not yes-or-no ones: more than 0 counts.
        case measurableWithoutTarget
    }

    private var counts = Counts()

    private struct Counts {
        var automatic = 0
        var unchecked = 0
        var unknown = 0
        var short = 0
        var dayNotes = 0
    }

    init(row: LoopHabitRow, entries: [LoopEntryRow]?, file: String, today: CivilDate, name: String) {
        self.row = row
        self.entries = entries
        self.file = file
        self.today = today
        self.name = name
    }

    /// The habit and its notes, one line each.
    mutating func map() throws(ImportError) -> (habit: HabitHistory, notes: [String]) {
        let entries = (self.entries ?? []).sorted { $0.date < $1.date }
        let reading = reading(of: entries)
        var completions: [CivilDate] = []
        var skips: [CivilDate] = []
        var lastRecorded: CivilDate?
        for entry in entries {
            if entry.hasNote { counts.dayNotes += 1 }
            if entry.value != LoopValue.yesAuto || !isYesNo(reading) { lastRecorded = entry.date }
            switch try outcome(of: entry, reading: reading) {
            case .completion: completions.append(entry.date)
            case .skip: skips.append(entry.date)
            case .nothing: break
            }
        }

        var notes: [String] = []
        if self.entries == nil {
            notes.append("\(name): no Checkmarks.csv for it in the export; imported without history")
        }
        if row.nameCleaned {
            notes.append(
                "\(row.name) (Habits.csv line \(row.line)): its line breaks, tabs or other control characters "
                    + "became spaces (Streakd's habit names have none)"
            )
        }
        if name != row.name {
            notes.append(
                "\(row.name) (Habits.csv line \(row.line)): imported as '\(name)'; an earlier habit has its name"
            )
        }
        notes += readingNotes(reading)
        if let frequency = row.frequency, frequency.numerator != frequency.denominator {
            notes.append(
                "\(name): \(plural(frequency.numerator, "time")) in \(plural(frequency.denominator, "day")) in Loop; "
                    + "imported as every day (Streakd's schedules are weekdays)"
            )
        }
        notes += countNotes(reading)

        var archivedOn: CivilDate?
        if row.archived == true {
            if let lastRecorded, let next = try? CivilDate(dayNumber: lastRecorded.dayNumber + 1) {
                archivedOn = next
            } else {
                archivedOn = today
                notes.append("\(name): archived in Loop with no entries to date it; archived from today (\(today))")
            }
        }

        let habit = HabitHistory(
            name: name,
            createdOn: entries.first?.date,
            archivedOn: archivedOn,
            completions: completions,
            skips: skips
        )
        return (habit, notes)
    }

    private enum Outcome {
        case completion, skip, nothing
    }

    private func reading(of entries: [LoopEntryRow]) -> Reading {
        switch row.kind {
        case .yesNo:
            return .yesNo
        case .measurable(let atMost, let target, let unit):
            return .measurable(atMost: atMost, target: target, unit: unit)
        case .unknown:
            let yesNoValues: Set = [
                LoopValue.yesManual, LoopValue.yesAuto, LoopValue.no, LoopValue.unknown, LoopValue.skip,
                LoopValue.earlySkip,
            ]
            return entries.allSatisfy { yesNoValues.contains($0.value) } ? .yesNo : .measurableWithoutTarget
        }
    }

    private func isYesNo(_ reading: Reading) -> Bool {
        if case .yesNo = reading { return true }
        return false
    }

    private mutating func outcome(of entry: LoopEntryRow, reading: Reading) throws(ImportError) -> Outcome {
        let value = entry.value
        switch reading {
        case .yesNo:
            switch value {
            case LoopValue.yesManual: return .completion
            case LoopValue.skip, LoopValue.earlySkip: return .skip
            case LoopValue.yesAuto: counts.automatic += 1
            case LoopValue.no: counts.unchecked += 1
            case LoopValue.unknown: counts.unknown += 1
            default:
                throw ImportError(
                    file: file,
                    line: entry.line,
                    field: "Value",
                    message: "\(value) is not a yes-or-no value (YES_MANUAL 2, YES_AUTO 1, NO 0, UNKNOWN -1, SKIP 3) "
                        + "and Habits.csv says the habit is YES_NO"
                )
            }
            return .nothing
        case .measurable(let atMost, let target, _):
            if value == LoopValue.unknown {
                counts.unknown += 1
                return .nothing
            }
            if value == LoopValue.skip || value == LoopValue.earlySkip { return .skip }
            try requireNotNegative(entry)
            let amount = Double(value) / 1000
            if atMost ? amount <= target : amount >= target { return .completion }
            counts.short += 1
            return .nothing
        case .measurableWithoutTarget:
            if value == LoopValue.unknown {
                counts.unknown += 1
                return .nothing
            }
            try requireNotNegative(entry)
            if value > 0 { return .completion }
            counts.short += 1
            return .nothing
        }
    }

    private func requireNotNegative(_ entry: LoopEntryRow) throws(ImportError) {
        guard entry.value >= 0 else {
            throw ImportError(
                file: file,
                line: entry.line,
                field: "Value",
                message: "\(entry.value) is negative; a measurable habit's value is 0 or more (in thousandths)"
            )
        }
    }

    private func readingNotes(_ reading: Reading) -> [String] {
        switch reading {
        case .yesNo:
            return []
        case .measurable(let atMost, let target, let unit):
            let amount = ([Self.number(target)] + (unit.isEmpty ? [] : [unit])).joined(separator: " ")
            let rule = atMost ? "at most \(amount)" : "at least \(amount)"
            return ["\(name): measurable in Loop (\(rule)); a day with an entry of \(rule) became a completion"]
        case .measurableWithoutTarget:
            return [
                "\(name): values other than Loop's yes-or-no ones, in an export without habit types: read as a "
                    + "measurable habit, a day with a value above 0 became a completion"
            ]
        }
    }

    private func countNotes(_ reading: Reading) -> [String] {
        var notes: [String] = []
        if counts.automatic > 0 { notes.append("\(name): \(plural(counts.automatic, "automatic check")) ignored") }
        if counts.unchecked > 0 { notes.append("\(name): \(plural(counts.unchecked, "unchecked day")) ignored") }
        if counts.unknown > 0 { notes.append("\(name): \(plural(counts.unknown, "day")) marked unknown ignored") }
        if counts.short > 0 {
            let which: String
            switch reading {
            case .measurable(atMost: true, _, _): which = "over the limit"
            case .measurable: which = "short of the target"
            default: which = "with a value of 0"
            }
            notes.append("\(name): \(plural(counts.short, "day")) \(which) ignored")
        }
        if counts.dayNotes > 0 {
            notes.append(
                "\(name): \(plural(counts.dayNotes, "day note")) not imported (Streakd keeps no notes on days)"
            )
        }
        return notes
    }

    private func plural(_ count: Int, _ noun: String) -> String {
        Plural.of(count, noun)
    }

    /// 10 for 10.0, else as Swift writes a Double (2.5).
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
