import Foundation
import StreakCLI

/// WCAG 2.2's relative luminance and contrast ratio, from the definitions
/// (https://www.w3.org/TR/WCAG22/#dfn-relative-luminance and #dfn-contrast-ratio).
enum WCAG {
    /// One sRGB channel, 0...255, linearized: c/12.92 up to 0.04045, else ((c + 0.055) / 1.055)^2.4.
    static func linear(_ channel: UInt8) -> Double {
        let c = Double(channel) / 255
        return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    /// L = 0.2126 R + 0.7152 G + 0.0722 B, on the linearized channels.
    static func luminance(_ color: RGBColor) -> Double {
        0.2126 * linear(color.red) + 0.7152 * linear(color.green) + 0.0722 * linear(color.blue)
    }

    /// (L1 + 0.05) / (L2 + 0.05), L1 the lighter.
    static func contrast(_ first: RGBColor, _ second: RGBColor) -> Double {
        let a = luminance(first)
        let b = luminance(second)
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }
}
