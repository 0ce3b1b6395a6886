import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The progress of an import or export on a terminal: habits, records, rate and time left, on
/// one line of standard error that redraws itself, once the transfer has taken a second. Piped,
/// it prints nothing (the command prints its counts at the end).
final class TransferProgress {
    private let verb: String
    private let started = Date()
    private let enabled: Bool
    private var shown = false
    private var lastDraw = Date.distantPast

    init(verb: String, quiet: Bool) {
        self.verb = verb
        enabled = !quiet && isatty(STDERR_FILENO) == 1
    }

    /// Redraws the line (at most ten times a second).
    func update(habits: Int, totalHabits: Int, records: Int, totalRecords: Int) {
        guard enabled else { return }
        let now = Date()
        let elapsed = now.timeIntervalSince(started)
        guard elapsed >= 1, now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        shown = true
        let rate = Double(records) / max(elapsed, 0.001)
        let left = rate > 0 ? Double(max(0, totalRecords - records)) / rate : 0
        let line =
            "\(verb): \(habits)/\(totalHabits) habits, \(records.formatted())/\(totalRecords.formatted()) records, "
            + "\(Int(rate).formatted())/s, ETA \(Int(left.rounded(.up))) s"
        FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
    }

    /// Clears the line when one was drawn.
    func finish() {
        guard shown else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
