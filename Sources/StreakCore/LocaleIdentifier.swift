internal import _FoundationICU

/// ICU's canonical and maximal forms of a locale identifier, straight from its C API (as
/// `DatePatternGenerator` asks for patterns), to tell which listed locale an identifier means.
enum LocaleIdentifier {
    /// The identifier in ICU's full canonical form, aliases replaced: `iw_IL` is `he_IL`, `in_ID`
    /// `id_ID`, `tl_PH` `fil_PH`; nil when ICU cannot read it.
    static func canonical(_ identifier: String) -> String? {
        call(identifier) { ualoc_canonicalForm($0, $1, $2, $3) }
    }

    /// The identifier with its likely script and region added: `zh_TW` is `zh_Hant_TW`, `sr_RS`
    /// `sr_Cyrl_RS`, `de` `de_Latn_DE`; nil when ICU cannot read it.
    static func maximal(_ identifier: String) -> String? {
        call(identifier) { swift_uloc_addLikelySubtags($0, $1, $2, $3) }
    }

    private static func call(
        _ identifier: String,
        _ function: (UnsafePointer<CChar>, UnsafeMutablePointer<CChar>, Int32, UnsafeMutablePointer<UErrorCode>)
            -> Int32
    ) -> String? {
        var status = U_ZERO_ERROR
        // ULOC_FULLNAME_CAPACITY, plus the terminating NUL.
        var buffer = [CChar](repeating: 0, count: 158)
        let length = identifier.withCString { function($0, &buffer, Int32(buffer.count - 1), &status) }
        guard status.rawValue <= U_ZERO_ERROR.rawValue, length > 0, Int(length) < buffer.count else { return nil }
        return String(decoding: buffer[..<Int(length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
