/// An sRGB colour with 8-bit channels, written as `#rrggbb` in SVG and CSS.
public struct RGBColor: Hashable, Sendable, CustomStringConvertible {
    /// The red channel, 0...255.
    public var red: UInt8
    /// The green channel, 0...255.
    public var green: UInt8
    /// The blue channel, 0...255.
    public var blue: UInt8

    /// A colour from its channels.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// A colour from a 24-bit value such as `0x8c959f`.
    public init(hex value: UInt32) {
        self.init(
            red: UInt8(truncatingIfNeeded: value >> 16),
            green: UInt8(truncatingIfNeeded: value >> 8),
            blue: UInt8(truncatingIfNeeded: value)
        )
    }

    /// `#rrggbb`, lower-case: the same text for the same colour, always.
    public var hex: String {
        "#"
            + [red, green, blue].map { byte in
                let digits = Array("0123456789abcdef")
                return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]])
            }.joined()
    }

    /// The same as `hex`.
    public var description: String { hex }
}
