// SCAFFOLD: replaced by the binary implementation.
/// Writes binary property lists.
public struct BinaryPropertyListWriter: Sendable {
    /// Creates a writer.
    public init() {}
    /// Writes a whole binary property list.
    public func write(_ value: PropertyListValue) -> [UInt8] { [] }
}
