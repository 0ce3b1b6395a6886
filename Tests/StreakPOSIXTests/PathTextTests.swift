import StreakPOSIX
import Testing

/// The string helpers that replaced `NSString`'s path methods and `String(format:)`.
@Suite struct PathTextTests {
    @Test(arguments: [
        ("/var/lib/streakd", "token", "/var/lib/streakd/token"),
        ("/var/lib/streakd/", "token", "/var/lib/streakd/token"),
        ("relative", "streakd.sqlite", "relative/streakd.sqlite"),
        ("/", "token", "/token"),
        ("", "token", "token"),
    ])
    func joining(directory: String, name: String, expected: String) {
        #expect(PathText.joining(directory, name) == expected)
    }

    @Test(arguments: [
        ("/var/lib/streakd/token", "/var/lib/streakd", "token"),
        ("/var/lib/streakd/", "/var/lib", "streakd"),
        ("/token", "/", "token"),
        ("token", ".", "token"),
        ("a/b", "a", "b"),
        ("/", "/", "/"),
    ])
    func parentAndLastComponent(path: String, parent: String, last: String) {
        #expect(PathText.parent(of: path) == parent)
        #expect(PathText.lastComponent(of: path) == last)
    }

    @Test(arguments: [
        ("  256 MiB\t\n", "256 MiB"), ("\r\nname\r\n", "name"), ("", ""), (" \t ", ""), ("x", "x"),
        ("\u{00A0}wide\u{2003}", "wide"), ("a b", "a b"),
    ])
    func trimmingWhitespace(text: String, expected: String) {
        #expect(text.trimmingWhitespace() == expected)
        #expect(text[...].trimmingWhitespace() == expected)
    }

    @Test(arguments: [
        (0.0, 2, "0.00"), (1.005, 1, "1.0"), (2.345, 2, "2.35"), (0.05, 1, "0.1"), (12.0, 0, "12"),
        (1023.96, 1, "1024.0"), (0.0004, 3, "0.000"), (-1.25, 1, "-1.3"), (-0.0001, 2, "0.00"),
        (3.14159, 3, "3.142"), (100.0, 2, "100.00"),
    ])
    func decimals(value: Double, places: Int, expected: String) {
        #expect(decimalText(value, places: places) == expected)
    }
}
