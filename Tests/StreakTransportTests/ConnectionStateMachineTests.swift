import Testing

@testable import StreakTransport

/// The connection's lifecycle, transition by transition, without sockets.
@Suite("ConnectionStateMachine")
struct ConnectionStateMachineTests {
    typealias Machine = ConnectionStateMachine

    /// A machine driven into `state` through the public transitions.
    static func machine(in state: Machine.State, highestID: UInt32 = 0, peerEnded: Bool = false) -> Machine {
        var machine = Machine()
        if highestID > 0 { _ = machine.requestReceived(id: highestID) }
        switch state {
        case .awaitingPreface: break
        case .active: _ = machine.prefaceReceived()
        case .draining:
            _ = machine.prefaceReceived()
            _ = machine.beginDraining()
        case .failed:
            _ = machine.prefaceReceived()
            _ = machine.protocolError()
        case .lingering:
            _ = machine.prefaceReceived()
            _ = machine.protocolError()
            _ = machine.outputFlushed(finished: true)
        case .closed: _ = machine.close()
        }
        if peerEnded { _ = machine.peerStoppedSending() }
        #expect(machine.state == state)
        return machine
    }

    static let allStates: [Machine.State] = [.awaitingPreface, .active, .draining, .failed, .lingering, .closed]

    @Test("a new connection awaits the preface and has sent nothing")
    func initial() {
        let machine = Machine()
        #expect(machine.state == .awaitingPreface && !machine.prefaceSent && !machine.peerEnded)
        #expect(machine.highestRequestID == 0 && machine.readsFrames && machine.mayResumeReads)
    }

    @Test("the client's preface activates the connection and asks for ours exactly once")
    func preface() {
        var machine = Machine()
        let sendsOurs = machine.prefaceReceived()
        #expect(sendsOurs)
        #expect(machine.state == .active && machine.prefaceSent)
        let check1 = !machine.prefaceReceived()
        #expect(check1)
        let check2 = !machine.sendPreface()
        #expect(check2)
    }

    @Test("our preface goes out once, before the first frame, in any state but closed", arguments: allStates)
    func sendPrefaceOnce(state: Machine.State) {
        var machine = Machine()
        switch state {
        case .draining: _ = machine.beginDraining()
        case .failed: _ = machine.protocolError()
        case .closed: _ = machine.close()
        default: break
        }
        guard state != .active && state != .lingering else { return }
        let check3 = machine.sendPreface() == (state != .closed)
        #expect(check3)
        let check4 = !machine.sendPreface()
        #expect(check4)
    }

    @Test(
        "requests: accepted while awaiting the preface or active, refused while draining, ignored after",
        arguments: zip(
            allStates,
            [Machine.RequestAction.accept, .accept, .refuseDraining, .ignore, .ignore, .ignore]
        )
    )
    func requests(state: Machine.State, expected: Machine.RequestAction) {
        var machine = Self.machine(in: state, highestID: 3)
        let check5 = machine.requestReceived(id: 9) == expected
        #expect(check5)
        #expect(machine.highestRequestID == (expected == .accept ? 9 : 3))
        let check6 = machine.requestReceived(id: 5) == expected
        #expect(check6)
        #expect(machine.highestRequestID == (expected == .accept ? 9 : 3), "the highest id, not the latest")
    }

    @Test("draining starts from awaiting the preface or active, once, with the highest id", arguments: allStates)
    func draining(state: Machine.State) {
        var machine = Self.machine(in: state, highestID: 7)
        let canDrain = state == .awaitingPreface || state == .active
        let check7 = machine.beginDraining() == (canDrain ? 7 : nil)
        #expect(check7)
        #expect(machine.state == (canDrain ? .draining : state))
        let check8 = machine.beginDraining() == nil
        #expect(check8)
    }

    @Test("a protocol error fails a serving connection once, with the highest id", arguments: allStates)
    func protocolError(state: Machine.State) {
        var machine = Self.machine(in: state, highestID: 4)
        let serving = state == .awaitingPreface || state == .active || state == .draining
        let check9 = machine.protocolError() == (serving ? 4 : nil)
        #expect(check9)
        #expect(machine.state == (serving ? .failed : state))
        #expect(!machine.readsFrames && !machine.mayResumeReads)
        let check10 = machine.protocolError() == nil
        #expect(check10)
    }

    @Test("the peer stopping ends the streams once while serving or failed", arguments: allStates)
    func peerStops(state: Machine.State) {
        var machine = Self.machine(in: state)
        let check11 = machine.peerStoppedSending() == (state != .lingering && state != .closed)
        #expect(check11)
        #expect(machine.peerEnded && !machine.mayResumeReads)
        let check12 = !machine.peerStoppedSending()
        #expect(check12)
        #expect(machine.state == state)
    }

    @Test(
        "flushed output: nothing while answers are pending; then draining and failed linger, a peer that stopped closes",
        arguments: allStates,
        [false, true]
    )
    func outputFlushed(state: Machine.State, peerEnded: Bool) {
        var pending = Self.machine(in: state, peerEnded: peerEnded)
        let check13 = pending.outputFlushed(finished: false) == .none
        #expect(check13)
        #expect(pending.state == state)

        var machine = Self.machine(in: state, peerEnded: peerEnded)
        let expected: Machine.FlushAction
        let after: Machine.State
        switch (state, peerEnded) {
        case (.draining, true): (expected, after) = (.close, .draining)
        case (.draining, false), (.failed, _): (expected, after) = (.linger, .lingering)
        case (.awaitingPreface, true), (.active, true): (expected, after) = (.close, state)
        default: (expected, after) = (.none, state)
        }
        let check14 = machine.outputFlushed(finished: true) == expected
        #expect(check14)
        #expect(machine.state == after)
        if expected == .linger {
            #expect(machine.isLingering && !machine.readsFrames)
            let check15 = machine.outputFlushed(finished: true) == .none
            #expect(check15, "lingers once")
        }
    }

    @Test("idle: GOAWAY when nothing is in flight, close when nothing more can come", arguments: allStates, [0, 2])
    func idle(state: Machine.State, inFlight: Int) {
        var machine = Self.machine(in: state, highestID: 6)
        let action = machine.idleTimeoutPassed(inFlight: inFlight)
        switch state {
        case .failed, .lingering: #expect(action == .close)
        case .closed, .draining: #expect(action == .none)
        case .awaitingPreface, .active:
            #expect(action == (inFlight == 0 ? .goAway(lastRequestID: 6) : .none))
            #expect(machine.state == (inFlight == 0 ? .draining : state))
        }
        var ended = Self.machine(in: state, highestID: 6, peerEnded: true)
        let endedAction = ended.idleTimeoutPassed(inFlight: inFlight)
        #expect(endedAction == (state == .closed ? .none : .close))
    }

    @Test("close: from any state, once", arguments: allStates)
    func close(state: Machine.State) {
        var machine = Self.machine(in: state)
        let check16 = machine.close() == (state != .closed)
        #expect(check16)
        #expect(machine.isClosed && !machine.readsFrames)
        let check17 = !machine.close()
        #expect(check17)
        let check18 = machine.requestReceived(id: 1) == .ignore
        #expect(check18)
        let check19 = machine.beginDraining() == nil && machine.protocolError() == nil
        #expect(check19)
    }
}
