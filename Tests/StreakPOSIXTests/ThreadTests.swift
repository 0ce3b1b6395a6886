import StreakPOSIX
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Named threads, the condition lock they sleep on, and whole-file reads.
@Suite struct ThreadTests {
    @Test("a named thread runs its body and carries its name (cut to 15 bytes)")
    func namedThread() {
        let lock = ConditionLock()
        let seen = Mutex<String?>(nil)
        NamedThread.start(name: "streakd-test-thread-name") {
            let name = Self.currentThreadName()
            lock.withLock { seen.withLock { $0 = name } }
            lock.signal()
        }
        lock.withLock {
            while seen.withLock({ $0 }) == nil { lock.wait() }
        }
        #expect(seen.withLock { $0 } == "streakd-test-th")
    }

    @Test("a condition lock hands work between threads: every item, in order, none lost")
    func conditionLockHandsOver() {
        let lock = ConditionLock()
        nonisolated(unsafe) var queue: [Int] = []
        nonisolated(unsafe) var taken: [Int] = []
        nonisolated(unsafe) var done = false
        NamedThread.start(name: "consumer") {
            lock.lock()
            while true {
                if !queue.isEmpty {
                    taken.append(queue.removeFirst())
                } else if done {
                    break
                } else {
                    lock.wait()
                }
            }
            done = false
            lock.broadcast()
            lock.unlock()
        }
        for item in 0..<2_000 {
            lock.withLock { queue.append(item) }
            lock.signal()
        }
        lock.lock()
        done = true
        lock.broadcast()
        while done { lock.wait() }
        lock.unlock()
        #expect(taken == Array(0..<2_000))
    }

    @Test("sleeping for a duration: at least that long, and not at all for none")
    func sleeping() {
        let clock = ContinuousClock()
        #expect(clock.measure { NamedThread.sleep(for: .milliseconds(20)) } >= .milliseconds(20))
        #expect(clock.measure { NamedThread.sleep(for: .seconds(1) + .milliseconds(5)) } >= .seconds(1))
        // Generous: a loaded machine may not run this thread for a while, and a wrong conversion
        // of a zero or negative duration sleeps for ever or for a very long time.
        #expect(clock.measure { NamedThread.sleep(for: .zero) } < .seconds(1))
        #expect(clock.measure { NamedThread.sleep(for: .milliseconds(-5)) } < .seconds(1))
    }

    @Test("reading a file to its end, and the system's words when it cannot be read")
    func readToEnd() throws {
        var template = Array("/tmp/streak-posix-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        try #require(descriptor >= 0)
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(path) }
        let text = String(repeating: "streak\n", count: 30_000)
        StandardStreams.write(text, to: descriptor)
        close(descriptor)

        let reading = open(path, O_RDONLY)
        defer { close(reading) }
        #expect(try StandardStreams.readToEnd(reading) == Array(text.utf8))

        let directory = open("/tmp", O_RDONLY | O_DIRECTORY)
        defer { close(directory) }
        #expect(throws: SystemError.self) { try StandardStreams.readToEnd(directory) }
        do {
            _ = try StandardStreams.readToEnd(directory)
        } catch {
            #expect(error.errno == EISDIR)
            #expect(error.description == "Is a directory")
        }
    }

    private static func currentThreadName() -> String {
        let file = open("/proc/thread-self/comm", O_RDONLY)
        defer { close(file) }
        let bytes = (try? StandardStreams.readToEnd(file)) ?? []
        return String(decoding: bytes, as: UTF8.self).trimmingWhitespace()
    }
}
