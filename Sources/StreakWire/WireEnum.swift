/// A proto enum declared in a message (e.g. `WireWatchEvent.Kind`): an open set of numbers, as
/// proto3 enums are, so that a value a newer peer sends is kept instead of refused. The values this
/// version knows are static constants of the type.
public protocol WireEnum: RawRepresentable, Hashable, Sendable where RawValue == Int32 {
    /// The value of a number, named by this version or not.
    init(rawValue: Int32)
}
