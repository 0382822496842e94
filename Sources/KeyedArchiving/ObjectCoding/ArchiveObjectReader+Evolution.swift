//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// The reader's forms of ``ArchiveEvolution``'s rules, which generated `init(archiveObject:)`
// bodies call.
extension ArchiveObjectReader {
    /// The version the object was stored with (see ``ArchiveFieldReader/decodeVersion(of:at:)``).
    /// - Parameters:
    ///   - type: The type being read.
    ///   - index: The index of its version key in the type's ``ArchiveObjectKeys``.
    /// - Returns: The version.
    /// - Throws: `DecodingError.dataCorrupted` when the stored version is newer than
    ///   `Value.archiveVersion` (code ``KeyedArchiveError/Code/typeVersionTooNew``) or is not an integer.
    @inlinable
    public func decodeVersion<Value: ArchiveVersioned>(of type: Value.Type, at index: Int) throws -> Int {
        // The usual case, decided where the type is known: no version stored, by a type that was
        // never versioned, which is then its own version wherever it is.
        if Value.archiveVersion == Value.unversionedArchiveVersion, !self.contains(index) {
            return Value.unversionedArchiveVersion
        }
        return try self.decodeStoredVersion(of: type, at: index)
    }

    /// ``decodeVersion(of:at:)`` beyond its usual case.
    @usableFromInline
    func decodeStoredVersion<Value: ArchiveVersioned>(of type: Value.Type, at index: Int) throws -> Int {
        let stored = self.contains(index) ? try self.decodeIfPresent(Int.self, at: index) : nil
        return try ArchiveEvolution.version(
            stored: stored,
            of: Value.self,
            belowRoot: self.node.depth > 0,
            decoder: self.coder,
            at: self.node.appending(self.key(at: index)).path
        )
    }

    /// Reads a value stored by an older version of the type, as
    /// ``ArchiveEvolution/migrate(_:from:)`` does from this object.
    /// - Parameter type: The type being read.
    /// - Returns: The migrated value.
    /// - Throws: What ``ArchiveEvolution/migrate(_:from:)`` throws.
    public func migrate<Value: ArchiveMigrating>(_ type: Value.Type) throws -> Value {
        try ArchiveEvolution.migrate(type, from: self.coder)
    }

    /// Reports a property falling back to its initial value, as
    /// ``ArchiveEvolution/recordFallback(from:decoding:key:codingPath:decoder:)`` does.
    /// - Parameters:
    ///   - error: Why the stored value did not decode.
    ///   - type: The type being read.
    ///   - index: The index of the property's current key in the type's ``ArchiveObjectKeys``.
    /// - Throws: `error`, when it is not one to fall back from.
    public func recordFallback(_ error: any Error, decoding type: Any.Type, at index: Int) throws {
        let key = self.key(at: index)
        try ArchiveEvolution.recordFallback(
            from: error,
            decoding: type,
            key: key.stringValue,
            codingPath: self.node.appending(key).path,
            decoder: self.coder
        )
    }
}
