// SCAFFOLD: replaced by the XML implementation.
/// Reads XML property lists.
public struct XMLPropertyListReader: Sendable {
    /// The bounds to enforce.
    public var limits: PropertyListLimits
    /// Creates a reader.
    public init(limits: PropertyListLimits = .default) { self.limits = limits }
    /// Reads a whole XML property list.
    public func read(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListValue {
        throw PropertyListError(.malformedXML, reason: "not implemented yet")
    }
}
