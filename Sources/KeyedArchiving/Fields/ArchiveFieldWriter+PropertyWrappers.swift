//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// A wrapped property (`@Clamped var volume = 5`) is written as synthesized `Codable` writes it
// when its wrapper is `Codable`: the wrapper's storage (`_volume`), by the wrapper's own
// `encode(to:)`, under the property's key. The macro cannot see whether a wrapper type is
// `Codable`; the compiler can, where the type is known: the body `@Archivable` generates calls
// `encodeWrapper(_:at:)` with the storage, and the overload for a `Codable` wrapper, the more
// constrained, wins over the general one whenever it applies (a conditional conformance that
// holds included). The general one writes nothing, and the body then writes the wrapped value by
// the rule of the property's type, as it always has.
extension ArchiveFieldWriter where Self: ~Copyable {
    /// Writes the storage of a wrapped property whose wrapper is `Codable`, as synthesized
    /// `Codable` writes it: the wrapper, by its own `encode(to:)`, under the property's key.
    ///
    /// Generated code calls it; it returns `true`, so that the wrapped value is not written too.
    /// - Parameters:
    ///   - wrapper: The property's storage (`_volume` for `@Clamped var volume`).
    ///   - index: The index of the property's key in the type's ``ArchiveObjectKeys``.
    /// - Returns: `true`: the property is written.
    /// - Throws: `EncodingError`, as `encode(_:forKey:)` does.
    @inlinable
    public mutating func encodeWrapper<Wrapper: Codable>(_ wrapper: Wrapper, at index: Int) throws -> Bool {
        try self.encode(wrapper, at: index)
        return true
    }

    /// Writes nothing for the storage of a wrapped property whose wrapper is not `Codable` (or
    /// only `Encodable` or `Decodable`), which synthesized `Codable` refuses: generated code then
    /// writes the wrapped value under the property's key.
    /// - Parameters:
    ///   - wrapper: The property's storage.
    ///   - index: The index of the property's key in the type's ``ArchiveObjectKeys``.
    /// - Returns: `false`: the wrapped value is to be written instead.
    @inlinable
    public mutating func encodeWrapper<Wrapper>(_ wrapper: Wrapper, at index: Int) throws -> Bool {
        false
    }
}
