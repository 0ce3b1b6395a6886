extension LocaleProfile {
    /// A month's title in this locale's own year-month form: `October 2026`, `2026年10月`,
    /// `октябрь 2026 г.`, `2026. október`.
    ///
    /// Formats `yearMonthPattern` by hand (years, months as numbers or names, quoted literals), so
    /// the server needs no date formatter per request. Any other pattern letter (an era `G`, which
    /// the Gregorian `yMMMM` never asks for) is left out rather than copied into the title.
    public func yearMonthTitle(year: Int, month: Int) -> String {
        title(pattern: yearMonthPattern, year: year, month: month)
    }

    /// `pattern` written out for `year` and `month` with this locale's month names.
    func title(pattern: String, year: Int, month: Int) -> String {
        var result = ""
        var characters = pattern[...]
        while let letter = characters.first {
            if letter == "'" {
                characters.removeFirst()
                if characters.first == "'" {
                    result.append("'")
                    characters.removeFirst()
                    continue
                }
                let literal = characters.prefix { $0 != "'" }
                result += literal
                characters = characters.dropFirst(literal.count + 1)
                continue
            }
            let run = characters.prefix { $0 == letter }
            characters = characters.dropFirst(run.count)
            switch letter {
            case "y" where run.count == 2: result += String(year % 100).leftPadded(to: 2)
            case "y": result += String(year)
            case "M", "L":
                switch run.count {
                case 1: result += String(month)
                case 2: result += String(month).leftPadded(to: 2)
                case 3: result += (letter == "M" ? shortMonthSymbols : shortStandaloneMonthSymbols)[month - 1]
                default: result += (letter == "M" ? formatMonthSymbols : monthSymbols)[month - 1]
                }
            case _ where letter.isASCII && letter.isLetter: break
            default: result += run
            }
        }
        return result.trimmingSpaces()
    }
}

extension String {
    /// Without leading and trailing white space (a dropped letter can leave a space at either end).
    fileprivate func trimmingSpaces() -> String {
        var characters = self[...]
        while characters.first?.isWhitespace == true { characters.removeFirst() }
        while characters.last?.isWhitespace == true { characters.removeLast() }
        return String(characters)
    }
}
