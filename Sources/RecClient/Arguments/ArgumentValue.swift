/// A type that can be read from one command-line value, as `Int` reads `--fps 30`.
///
/// Conform your own types to read them directly: `try values.value(.from, as: TimeSpec.self)`.
package protocol ArgumentValue: Sendable {
    /// The value parsed from `argument`, or `nil` if it does not convert.
    init?(argument: String)
    /// What a valid value looks like, for the error message: "an integer".
    static var expectedValue: String { get }
}

extension String: ArgumentValue {
    package init?(argument: String) { self = argument }
    package static var expectedValue: String { "a string" }
}

extension Int: ArgumentValue {
    package init?(argument: String) { self.init(argument) }
    package static var expectedValue: String { "an integer" }
}

extension Int64: ArgumentValue {
    package init?(argument: String) { self.init(argument) }
    package static var expectedValue: String { "an integer" }
}

extension Double: ArgumentValue {
    package init?(argument: String) {
        guard let value = Double(argument), value.isFinite else { return nil }
        self = value
    }
    package static var expectedValue: String { "a number" }
}

/// String enums read their raw value: `enum Pace: String, CaseIterable, ArgumentValue { case realtime, off }`.
extension ArgumentValue where Self: RawRepresentable, Self.RawValue == String, Self: CaseIterable {
    package init?(argument: String) { self.init(rawValue: argument) }
    package static var expectedValue: String { "one of " + allValueStrings.joined(separator: ", ") }
    /// Every accepted value, for `ArgumentSpec.option(_:choices:…)`.
    package static var allValueStrings: [String] { allCases.map(\.rawValue) }
}
