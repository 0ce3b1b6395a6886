internal import _FoundationICU

/// A locale's best date pattern for a skeleton, straight from ICU's pattern generator (the one
/// `DateFormatter.dateFormat(fromTemplate:options:locale:)` asks), so that the core needs only
/// FoundationEssentials and FoundationInternationalization and not the whole of Foundation.
enum DatePatternGenerator {
    /// The pattern ICU gives `skeleton` (such as `yMMMM`) in `localeIdentifier`, or nil when ICU
    /// has none.
    static func bestPattern(skeleton: String, localeIdentifier: String) -> String? {
        var status = U_ZERO_ERROR
        guard let generator = swift_udatpg_open(localeIdentifier, &status), status.rawValue <= U_ZERO_ERROR.rawValue
        else {
            return nil
        }
        defer { swift_udatpg_close(generator) }
        let units = Array(skeleton.utf16)
        var pattern = [UChar](repeating: 0, count: 64)
        let length = swift_udatpg_getBestPattern(
            generator,
            units,
            Int32(units.count),
            &pattern,
            Int32(pattern.count),
            &status
        )
        guard status.rawValue <= U_ZERO_ERROR.rawValue, length > 0, Int(length) <= pattern.count else { return nil }
        return String(decoding: pattern[..<Int(length)], as: UTF16.self)
    }
}
