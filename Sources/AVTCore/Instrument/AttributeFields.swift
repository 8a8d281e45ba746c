/// An object whose values several getters read by number (`AttributeGetter(field:of:)`), such
/// as a player tracker's position, bitrate and sizes: the engine asks one method for each, which
/// costs less per event than a closure per attribute.
public protocol AttributeFields: AnyObject {
    /// The current value of field number `field` (as the getter was made with); nil leaves the
    /// attribute off the event.
    func attributeValue(field: Int) -> AttributeValue?
}
