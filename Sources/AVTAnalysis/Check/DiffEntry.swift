import AVTJSON
import AVTKPI
import AVTOutput

/// One step of the aligned comparison.
package enum DiffEntry: Sendable, Equatable {
    case same(expected: OutputRecord, actual: OutputRecord)
    case changed(expected: OutputRecord, actual: OutputRecord, changes: [FieldChange])
    case missing(OutputRecord)
    case extra(OutputRecord)

    package var isDifference: Bool {
        if case .same = self { return false }
        return true
    }
}
