import AVTCore
import AVTJSON

/// Error attributes that only OpenAVT-Android and OpenAVT-JS send, not among AVTCore's statics.
package enum PlayerAttribute {
    static let errorCode = Attribute("errorCode")
    static let errorType = Attribute("errorType")
}
