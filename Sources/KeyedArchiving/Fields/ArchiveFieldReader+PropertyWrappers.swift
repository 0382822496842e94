//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// A wrapped property whose wrapper is `Codable` is read as synthesized `Codable` reads it: the
// wrapper, by its own `init(from:)`, into the property's storage. Data written before the macro
// wrote wrappers (the wrapped value under the key, inline where it is a number) and data a
// keyed wrapper cannot read as itself (the wrapped value where the wrapper's object is expected)
// are read as the wrapped value, by the rule of the property's type: through the wrapper's
// `init(wrappedValue:)` when the property is not yet initialized, through its setter otherwise.
extension ArchiveFieldReader where Self: ~Copyable {
    /// Reads the storage of a wrapped property whose wrapper is `Codable`, as synthesized
    /// `Codable` reads it: the wrapper, by its own `init(from:)`.
    ///
    /// Generated code calls it and, when it returns `nil`, reads the wrapped value instead, by
    /// the rule of the property's type (an absent key is then an error, `nil` or the initial
    /// value, as for any property).
    /// - Parameters:
    ///   - index: The index of the property's key in the type's ``ArchiveObjectKeys``.
    ///   - storage: A closure that reads the property's storage (`{ (value: Self) in
    ///     value._volume }`), which names the wrapper type; it is never called. (A key path would
    ///     name it too, but costs an instantiation at run time, and one through `Self` in a class
    ///     fails there.)
    /// - Returns: The wrapper; `nil` when the key is absent, or when the value under it is not
    ///   the wrapper's form (a type mismatch or a null at the key itself, not deeper in the
    ///   wrapper): the wrapped value as written before `@Archivable` wrote wrappers.
    /// - Throws: `DecodingError`, as `decode(_:forKey:)` does, for any other failure.
    @inlinable
    public func decodeWrapper<Root, Wrapper: Codable>(
        at index: Int,
        of storage: (Root) -> Wrapper
    ) throws -> Wrapper? {
        guard self.contains(index) else { return nil }
        do {
            return try self.decode(Wrapper.self, at: index)
        } catch let error as DecodingError {
            guard ArchiveWrappedValueForm.isWrappedValue(error, atDepth: self.decoder.codingPath.count + 1) else {
                throw error
            }
            return nil
        }
    }

    /// Reads nothing for a wrapped property whose wrapper is not `Codable` (or only `Encodable`
    /// or `Decodable`): generated code reads the wrapped value, as written under the property's
    /// key, and assigns it through the wrapper.
    /// - Parameters:
    ///   - index: The index of the property's key in the type's ``ArchiveObjectKeys``.
    ///   - storage: A closure that reads the property's storage, which names the wrapper type;
    ///     it is never called.
    /// - Returns: `nil`: the wrapped value is to be read instead.
    @inlinable
    public func decodeWrapper<Root, Wrapper>(at index: Int, of storage: (Root) -> Wrapper) throws -> Wrapper? {
        nil
    }
}

/// Tells the failures that mean a key holds a wrapped value where its wrapper was expected.
@usableFromInline
enum ArchiveWrappedValueForm {
    /// Whether `error` is a type mismatch or a missing value at the key itself (its coding path
    /// `depth` long), which a wrapper's `init(from:)` meets when the key holds the wrapped value:
    /// a number where a keyed wrapper expects its object, or a null.
    @usableFromInline
    static func isWrappedValue(_ error: DecodingError, atDepth depth: Int) -> Bool {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return context.codingPath.count == depth
        case .keyNotFound, .dataCorrupted:
            return false
        @unknown default:
            return false
        }
    }
}
