internal import CStreakProto
import StreakCore

/// Copies unpacked protoc-c values into Swift values, validating what the schema constrains.
enum WireLift {
    /// A string field: UTF-8 up to its NUL (protobuf-c strings are NUL-terminated).
    /// - Throws: `.invalidValue` when the bytes are not UTF-8.
    static func string(_ pointer: UnsafeMutablePointer<CChar>?, field: String) throws(WireError) -> String {
        guard let pointer, pointer.pointee != 0 else { return "" }
        let bytes = UnsafeBufferPointer(
            start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self),
            count: streak_strlen(pointer)
        )
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw WireError(.invalidValue, "field \(field) is not valid UTF-8")
        }
        return string
    }

    /// A `bytes` field.
    static func bytes(_ data: ProtobufCBinaryData) -> [UInt8] {
        guard data.len > 0, let base = data.data else { return [] }
        return [UInt8](UnsafeBufferPointer(start: base, count: data.len))
    }

    /// A `Date` field; nil when absent.
    /// - Throws: `.invalidDate` when present but not a real day.
    static func date(
        _ pointer: UnsafeMutablePointer<Streak__V1__Date>?,
        field: String
    ) throws(WireError) -> CivilDate? {
        guard let pointer else { return nil }
        let (year, month, day) = (pointer.pointee.year, pointer.pointee.month, pointer.pointee.day)
        do {
            return try CivilDate(year: Int(year), month: Int(month), day: Int(day))
        } catch {
            throw WireError(.invalidDate, "invalid date \(format(year, month, day)) in field \(field)")
        }
    }

    /// A `Weekday` field; nil for WEEKDAY_UNSPECIFIED.
    /// - Throws: `.invalidValue` for a number outside 0...7.
    static func weekday(_ value: Streak__V1__Weekday, field: String) throws(WireError) -> Weekday? {
        let number = Int32(truncatingIfNeeded: value.rawValue)
        guard number != 0 else { return nil }
        guard let weekday = Weekday(rawValue: Int(number)) else {
            throw WireError(.invalidValue, "unknown weekday \(number) in field \(field)")
        }
        return weekday
    }

    /// A message field; nil when absent.
    static func message<M: CBridgedMessage>(
        _ pointer: UnsafeMutablePointer<M.CMessage>?,
        as type: M.Type
    ) throws(WireError) -> M? {
        guard let pointer else { return nil }
        return try M(lifting: pointer)
    }

    /// A repeated scalar field.
    static func scalars<T>(_ count: Int, _ array: UnsafeMutablePointer<T>?) -> [T] {
        guard count > 0, let array else { return [] }
        return [T](UnsafeBufferPointer(start: array, count: count))
    }

    /// A repeated string field.
    static func strings(
        _ count: Int,
        _ array: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
        field: String
    ) throws(WireError) -> [String] {
        guard count > 0, let array else { return [] }
        var result: [String] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            result.append(try string(array[index], field: field))
        }
        return result
    }

    /// A repeated `Date` field; every element must be a real day.
    static func dates(
        _ count: Int,
        _ array: UnsafeMutablePointer<UnsafeMutablePointer<Streak__V1__Date>?>?,
        field: String
    ) throws(WireError) -> [CivilDate] {
        guard count > 0, let array else { return [] }
        var result: [CivilDate] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            // protobuf-c never stores NULL in a repeated message array; an empty Date is 0000-00-00.
            guard let date = try date(array[index], field: field) else {
                throw WireError(.invalidDate, "missing date in field \(field)")
            }
            result.append(date)
        }
        return result
    }

    /// A repeated `Weekday` field; every element must be a weekday (1...7).
    /// - Throws: `.invalidValue` for WEEKDAY_UNSPECIFIED or a number outside 1...7.
    static func weekdays(
        _ count: Int,
        _ array: UnsafeMutablePointer<Streak__V1__Weekday>?,
        field: String
    ) throws(WireError) -> [Weekday] {
        guard count > 0, let array else { return [] }
        var result: [Weekday] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            guard let weekday = try weekday(array[index], field: field) else {
                throw WireError(.invalidValue, "unknown weekday 0 in field \(field)")
            }
            result.append(weekday)
        }
        return result
    }

    /// A repeated message field.
    static func messages<M: CBridgedMessage>(
        _ count: Int,
        _ array: UnsafeMutablePointer<UnsafeMutablePointer<M.CMessage>?>?,
        as type: M.Type
    ) throws(WireError) -> [M] {
        guard count > 0, let array else { return [] }
        var result: [M] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            guard let element = array[index] else {
                throw WireError(.malformed, "missing element in a repeated \(M.self) field")
            }
            result.append(try M(lifting: element))
        }
        return result
    }

    /// `YYYY-MM-DD` for components that may not form a date (negative or oversized ones included).
    static func format(_ year: Int32, _ month: Int32, _ day: Int32) -> String {
        func padded(_ value: Int32, _ width: Int) -> String {
            let digits = String(value.magnitude)
            let sign = value < 0 ? "-" : ""
            return sign + String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }
}

/// Swift values to protoc-c values that need no memory.
enum WireLower {
    /// A `Weekday` field: 0 for nil.
    static func weekday(_ weekday: Weekday?) -> Streak__V1__Weekday {
        Streak__V1__Weekday(rawValue: .init(truncatingIfNeeded: weekday?.rawValue ?? 0))
    }
}
