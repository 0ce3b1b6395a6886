import StreakTransport
import Testing

/// A repeated event's log lines: the first at once, then one per interval with the count.
@Suite struct LogThrottleTests {
    @Test func oneLinePerIntervalCountingWhatHappenedMeanwhile() {
        var throttle = LogThrottle(interval: 10)
        #expect(throttle.count(now: 100) == 1)
        #expect(throttle.count(now: 101) == nil)
        #expect(throttle.count(now: 109) == nil)
        #expect(throttle.count(now: 110) == 3)
        #expect(throttle.count(now: 119) == nil)
        #expect(throttle.count(now: 500) == 2)
    }

    @Test func aTimeReadBeforeTheLastLineIsNotALongWait() {
        var throttle = LogThrottle(interval: 10)
        #expect(throttle.count(now: 100) == 1)
        // Read by another thread just before the line at 100 was counted.
        #expect(throttle.count(now: 99) == nil)
    }
}
