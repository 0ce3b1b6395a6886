import Foundation
import StreakCore
import StreakFraming
import StreakWire

/// Connections that pipeline 20-year heatmaps and never read, one thread each: each sends its
/// requests in one go, holds the connection open for a while unread, closes it and connects again.
final class HogGroup: @unchecked Sendable {
    private let endpoint: ServerEndpoint
    private let tls: LoadTLS?
    private let templates: [RequestTemplate]
    private let requests: Int
    private let hold: Double
    private let reading: Bool
    private let lock = NSLock()
    private var running = true
    private var sentRequests = 0
    private var connections = 0
    private var failure: String?
    private var threads = 0
    private let finished = DispatchSemaphore(value: 0)

    /// The ranges that rotate: enough that most answers are computed rather than cached.
    static let rangeCount = 64

    /// - Parameter reading: the hogs read every answer instead (and send a new request for each),
    ///   so that 20-year answers flow to them without a pause.
    init(endpoint: ServerEndpoint, tls: LoadTLS?, tokens: [String], requests: Int, hold: Double, reading: Bool = false)
    {
        self.endpoint = endpoint
        self.reading = reading
        self.tls = tls
        self.requests = requests
        self.hold = hold
        var templates: [RequestTemplate] = []
        for (index, token) in tokens.enumerated() {
            for shift in 0..<Self.rangeCount where shift % tokens.count == index % tokens.count || tokens.count == 1 {
                var request = WireGetHeatmapRequest()
                let to = try! BenchUser.asOf.adding(days: -shift)
                request.to = to
                request.from = try! to.adding(days: -(20 * 366 - 1))
                request.asOf = BenchUser.asOf
                request.accessibilityLabels = true
                templates.append(
                    RequestTemplate(
                        method: WireMethod.getHeatmap.rawValue,
                        token: token,
                        message: request.serializedBytes()
                    )
                )
            }
        }
        self.templates = templates
    }

    /// Requests the socket took so far (whether the server read them or not).
    var sent: Int { lock.withLock { sentRequests } }
    /// Connections made so far.
    var connected: Int { lock.withLock { connections } }
    /// The first failure to connect, if any.
    var firstError: String? { lock.withLock { failure } }

    func start(count: Int) {
        lock.withLock { threads = count }
        for hog in 0..<count {
            Thread.detachNewThread { [self] in
                run(hog: hog)
                finished.signal()
            }
        }
    }

    /// Stops every hog and waits for their threads (each closes its connection).
    func stop() {
        lock.withLock { running = false }
        for _ in 0..<lock.withLock({ threads }) { finished.wait() }
    }

    private var isRunning: Bool { lock.withLock { running } }

    private func run(hog: Int) {
        var round = 0
        while isRunning {
            round += 1
            let connection: LoadConnection
            do {
                connection = try LoadConnection(address: endpoint, tls: tls)
            } catch {
                lock.withLock { failure = failure ?? "\(error)" }
                Thread.sleep(forTimeInterval: 0.1)
                continue
            }
            lock.withLock { connections += 1 }
            connection.makeNonBlocking()
            if reading {
                readAnswers(connection, hog: hog)
                continue
            }
            var output: [UInt8] = []
            var frameEnds: [Int] = []
            for index in 0..<requests {
                let template = templates[(hog * 7 + round * 13 + index) % templates.count]
                template.appendFrame(id: UInt32(index + 1), to: &output)
                frameEnds.append(output.count)
            }
            // Non-blocking: what the socket does not take within the hold is dropped with the connection.
            var offset = 0
            let end = Date().addingTimeInterval(hold)
            while isRunning && Date() < end {
                if offset < output.count, let sent = try? connection.sendSome(output, from: offset) {
                    offset = sent
                }
                Thread.sleep(forTimeInterval: 0.01)
            }
            let written = frameEnds.prefix { $0 <= offset }.count
            lock.withLock { sentRequests += written }
            _ = connection  // closed here, unread
        }
    }

    /// A reading hog: keeps `requests` in flight, reads every answer and sends one request per answer.
    private func readAnswers(_ connection: LoadConnection, hog: Int) {
        var output: [UInt8] = []
        var offset = 0
        var nextID: UInt32 = 1
        func enqueue(_ count: Int) {
            if offset == output.count {
                output.removeAll(keepingCapacity: true)
                offset = 0
            }
            for _ in 0..<count {
                templates[(hog * 7 + Int(nextID)) % templates.count].appendFrame(id: nextID, to: &output)
                nextID = nextID == .max ? 1 : nextID + 1
            }
        }
        enqueue(requests)
        var poller = pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0)
        do {
            while isRunning {
                if offset < output.count { offset = try connection.sendSome(output, from: offset) }
                poller.events = Int16(POLLIN) | (offset < output.count ? Int16(POLLOUT) : 0)
                _ = poll(&poller, 1, 10)
                try connection.receiveAvailable()
                var answered = 0
                while let frame = try connection.bufferedFrame() {
                    if case .response = frame { answered += 1 }
                }
                if answered > 0 {
                    enqueue(answered)
                    lock.withLock { sentRequests += answered }
                }
            }
        } catch {
            lock.withLock { failure = failure ?? "\(error)" }
        }
    }
}
