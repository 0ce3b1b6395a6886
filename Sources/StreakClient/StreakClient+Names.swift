import StreakCore
import StreakWire

extension StreakClient {
    /// Refuses, before anything is sent, a CreateHabit or RenameHabit whose name the server would
    /// refuse (`HabitName`): INVALID_ARGUMENT with the server's message, origin `.local`.
    static func checkNames(_ method: WireMethod, _ request: some WireMessage) throws(StreakClientError) {
        let name: String
        switch method {
        case .createHabit:
            guard let request = request as? WireCreateHabitRequest else { return }
            name = request.name
        case .renameHabit:
            guard let request = request as? WireRenameHabitRequest else { return }
            name = request.name
        default:
            return
        }
        if let problem = HabitName.problem(name) { throw StreakClientError(.invalidArgument, problem) }
    }
}
