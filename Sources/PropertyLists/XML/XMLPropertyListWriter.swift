// SCAFFOLD: replaced by the XML implementation.
/// Writes XML property lists.
public struct XMLPropertyListWriter: Sendable {
    /// Creates a writer.
    public init() {}
    /// Writes a whole XML property list.
    public func write(_ value: PropertyListValue) -> [UInt8] { [] }
}
