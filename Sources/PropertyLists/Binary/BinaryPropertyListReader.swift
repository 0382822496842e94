// SCAFFOLD: replaced by the binary implementation.
/// Reads binary property lists.
public struct BinaryPropertyListReader: Sendable {
    /// Creates a reader.
    public init(bytes: [UInt8], limits: PropertyListLimits = .default) throws(PropertyListError) {}
    /// Reads the whole tree.
    public func topLevelValue() throws(PropertyListError) -> PropertyListValue { 0 }
}
