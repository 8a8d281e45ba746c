extension Attribute {
    @inlinable
    init(_ builtin: BuiltinAttribute) { self.init(index: builtin.rawValue) }

    static let builtinNames = BuiltinAttribute.allCases.map { "\($0)" }
}

extension Action {
    /// A built-in action and its `timeSince<Name>` attribute, both at their fixed indexes.
    @inlinable
    init(_ builtin: BuiltinAction) {
        self.init(
            index: builtin.rawValue,
            timeAttribute: Attribute(index: BuiltinAttribute.timeSinceTrackerInit.rawValue &+ builtin.rawValue))
    }

    static let builtinNames = BuiltinAction.allCases.map { name in
        let text = "\(name)"
        return text.prefix(1).uppercased() + text.dropFirst()
    }
}
