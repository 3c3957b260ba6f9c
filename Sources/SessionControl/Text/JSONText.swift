import Foundation

/// Every `--json` output: one line (or `pretty`), keys sorted and in snake_case, so scripts see
/// the same conventions from every command as from the control protocol.
package enum JSONText {
    package static func encode<T: Encodable>(_ value: T, pretty: Bool = false) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted] : [.sortedKeys]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
