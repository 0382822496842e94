//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// What the encoder needs to know about a Swift type that no option changes: how its values are
/// archived, and the class names it takes when no name is set for it.
///
/// Found once per process and type by ``facts(of:)``: the conformance checks, `Mirror` and
/// `String(describing:)` behind them cost about as much as encoding a thousand small values, so
/// paying them in every encoding session made small archives slow. ``ArchiveEncodingSession``
/// combines them with its class-name options into its per-session ``ArchiveEncodingTypeInfo``.
///
/// Instances never change after they are made, so sharing them between threads is safe; the
/// metatype they hold is not declared `Sendable`, hence `@unchecked`.
internal final class ArchiveEncodingTypeFacts: @unchecked Sendable {
    /// How values of the type are archived.
    let kind: ArchiveEncodingTypeInfo.Kind
    /// The type as an array that ``ArchiveEncodingSession`` encodes without an encoder, if it is one.
    let arrayMarker: (any _ArchiveArrayEncodableMarker.Type)?
    /// The type as one that writes its object itself, if it is one and declares it itself: a
    /// subclass inheriting a conformance goes through `encode(to:)`, which it may override.
    let objectEncoder: (any ArchiveObjectEncodable.Type)?
    /// The type as an enum stored as its raw string, if it is one.
    let rawValueEncoder: (any ArchiveRawValueCodable.Type)?
    /// The class the type declares through ``ArchivedClassNaming``, if it does.
    let namedClass: ArchivedClass?
    /// The type's class name without a name set for it: its ``ArchivedClassNaming`` name, else
    /// its unqualified Swift name.
    let defaultName: String
    /// The superclasses of a class, nearest first, each with its identifier (to look up a name set
    /// for it) and its default name as for ``defaultName``; empty for other types.
    let superclasses: [(identifier: ObjectIdentifier, defaultName: String)]

    private init<T: Encodable>(of value: T, type: Any.Type) {
        // Asked first: a type that writes its own object (`@Archivable`'s) is no collection, so
        // the three questions below, each a scan of every conformance the first time the runtime
        // is asked it for a type, are spared where an app's launch meets most of its types.
        let directType = type as? any ArchiveObjectEncodable.Type
        let kind: ArchiveEncodingTypeInfo.Kind
        if directType != nil {
            kind = type is AnyClass ? .instance : .value
        } else if value is any _ArchiveSetEncodableMarker {
            kind = .set
        } else if value is any _ArchiveArrayEncodableMarker {
            kind = .array
        } else if value is any _ArchiveDictionaryEncodableMarker {
            kind = .dictionary
        } else if type is AnyClass {
            kind = .instance
        } else {
            kind = .value
        }
        self.kind = kind
        self.arrayMarker = kind == .array ? type as? any _ArchiveArrayEncodableMarker.Type : nil
        if let naming = type as? any ArchivedClassNaming.Type {
            self.namedClass = ArchivedClass(name: naming.archivedClassName, classes: naming.archivedClassChain)
        } else {
            self.namedClass = nil
        }
        self.defaultName = Self.defaultName(of: type)
        var superclasses: [(identifier: ObjectIdentifier, defaultName: String)] = []
        if kind == .instance {
            var superclass = Mirror(reflecting: value).superclassMirror
            while let mirror = superclass {
                superclasses.append((ObjectIdentifier(mirror.subjectType), Self.defaultName(of: mirror.subjectType)))
                superclass = mirror.superclassMirror
            }
        }
        self.superclasses = superclasses
        var objectEncoder = kind == .value || kind == .instance ? directType : nil
        // A type that writes its object through `encode(to:)` (a subclass of a plain Codable class).
        if let direct = objectEncoder, direct.archiveObjectKeys.isThroughCodable { objectEncoder = nil }
        if objectEncoder != nil, kind == .instance {
            var superclass = Mirror(reflecting: value).superclassMirror
            while let mirror = superclass, objectEncoder != nil {
                if mirror.subjectType is any ArchiveObjectEncodable.Type { objectEncoder = nil }
                superclass = mirror.superclassMirror
            }
        }
        self.objectEncoder = objectEncoder
        self.rawValueEncoder = kind == .value ? type as? any ArchiveRawValueCodable.Type : nil
    }

    /// A type's class name when none is set for it: chosen with ``ArchivedClassNaming``, else its
    /// unqualified Swift name.
    private static func defaultName(of type: Any.Type) -> String {
        if let naming = type as? any ArchivedClassNaming.Type { return naming.archivedClassName }
        return Self.swiftName(of: type)
    }

    /// A type's unqualified Swift name (`Cat`, `Box<Int>`), what `String(describing: type)` gives.
    ///
    /// `String(describing:)` first asks whether the metatype is `TextOutputStreamable`,
    /// `CustomStringConvertible` or `CustomDebugStringConvertible`, which no metatype is; each first
    /// answer scans every conformance record in the process: about 0.5 million instructions a
    /// type, more than half of the first archive a process writes.
    static func swiftName(of type: Any.Type) -> String {
        _typeName(type, qualified: false)
    }

    /// The facts of every type met so far in the process, by identifier.
    private static let known = Locked<[ObjectIdentifier: ArchiveEncodingTypeFacts]>([:])

    /// The facts of a value's dynamic type, found on the first call for the type.
    /// - Parameters:
    ///   - value: A value of the type.
    ///   - type: The value's dynamic type, `type(of: value)`.
    static func facts<T: Encodable>(of value: T, type: Any.Type) -> ArchiveEncodingTypeFacts {
        let identifier = ObjectIdentifier(type)
        if let facts = Self.known.withLock({ $0[identifier] }) { return facts }
        // Found outside the lock: the checks may run user code (such as `archivedClassName`). Two
        // threads may both find them; they find the same facts, and the first stored is kept.
        let found = ArchiveEncodingTypeFacts(of: value, type: type)
        return Self.known.withLock { known in
            if let existing = known[identifier] { return existing }
            known[identifier] = found
            return found
        }
    }
}
