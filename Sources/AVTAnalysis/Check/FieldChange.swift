import AVTJSON

/// One difference in a field of an aligned record pair.
package struct FieldChange: Sendable, Equatable {
    /// `t`, `value` or `attributes.<name>`.
    package var field: String
    package var expected: JSONValue?
    package var actual: JSONValue?
    /// The ids as the files hold them, when normalising renamed them (`P1` was this UUID): what
    /// a reviewer can search the files for.
    package var expectedOriginal: String? = nil
    package var actualOriginal: String? = nil
}
