import AVTJSON

extension JSONParser {
    /// `bytes` parsed; a syntax error is a `TimelineError` of `file` at its line and column, as
    /// every reader of JSON input reports it. `firstLine` is the line `bytes` begin on.
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>, firstLine: Int, file: String)
        throws(TimelineError) -> JSONNode
    {
        do {
            return try parse(bytes, firstLine: firstLine)
        } catch {
            throw TimelineError(file: file, location: error.location, message: error.message)
        }
    }

    /// The same, for bytes in an array.
    package static func parse(_ bytes: [UInt8], firstLine: Int = 1, file: String) throws(TimelineError) -> JSONNode {
        do {
            return try parse(bytes, firstLine: firstLine)
        } catch {
            throw TimelineError(file: file, location: error.location, message: error.message)
        }
    }
}
