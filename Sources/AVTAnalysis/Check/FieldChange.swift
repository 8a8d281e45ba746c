import AVTJSON

/// One difference in a field of an aligned record pair.
package struct FieldChange: Sendable, Equatable {
    /// `t`, `value` or `attributes.<name>`.
    package var field: String
    package var expected: JSONValue?
    package var actual: JSONValue?
}
