import AVTCore
import AVTJSON

/// A backend that writes records somewhere and reports the first write failure afterwards
/// (backends cannot throw into the event chain).
public protocol RecordBackend: Backend {
    /// The first error writing the records; nil while all went well.
    var writeError: OutputError? { get }
}
