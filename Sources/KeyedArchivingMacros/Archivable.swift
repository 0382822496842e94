//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// The generated code names KeyedArchiving's types fully; importing this module is enough to use it.
@_exported public import KeyedArchiving

/// Generates a `Codable` conformance that lets stored values outlive changes to the type.
///
/// With no attribute and no initial value in play, the conformance reads and writes exactly what
/// the synthesized one would, with every coder. On top of that:
///
/// - A `var` with an initial value decodes to it when its key is absent or holds null.
/// - ``ArchiveKey(_:_:)`` renames a property and keeps reading its former keys.
/// - ``ArchiveIgnored()`` leaves a property out; ``ArchiveFallback()`` falls back to its initial
///   value when the stored one does not decode, and reports it.
/// - A stored property of type `ArchiveUnknownFields` keeps the keys the type does not know and
///   writes them back.
/// - ``ArchiveUnknownCase()`` names the case an unknown stored case decodes to.
/// - A property wrapper's storage is archived as synthesized `Codable` archives it;
///   ``ArchiveUnwrapped()`` archives the property's value instead.
/// - `version` and `previousVersion` version the type and migrate older data step by step.
///
/// ```swift
/// @Archivable(className: "MyApp.Cat", formerClassNames: ["OldApp.Cat"])
/// struct Cat {
///     var name: String
///     var lives = 9
///     @ArchiveKey("color", "colour") var color: String?
/// }
/// ```
///
/// Works on structs, final classes (subclasses included) and enums, generic or not; a class that
/// may be subclassed takes ``ArchivableClass(version:unversionedVersion:versionKey:)``. The type
/// conforms to `Codable` and `ArchiveVersioned`. Structs and final classes also conform to
/// `ArchiveObjectEncodable` and `ArchiveObjectDecodable`, and enums with `String` raw values to
/// `ArchiveRawValueCodable`: this package's coders then write and read them directly, without
/// `Encoder` containers, to the same bytes and values. See <doc:EvolvingArchivedTypes> and
/// <doc:ArchivableExpansion>.
/// - Parameters:
///   - version: The version the type writes, 1 or more. Raise it only for a change that needs a
///     migration; a type whose version differs from `unversionedVersion` writes it under
///     `versionKey` in its own archived object.
///   - previousVersion: The type that decodes data older than `version`, such as `CatV1.self`; the
///     type then conforms to `ArchiveMigrating` and implements `init(migratingFrom:)`.
///   - unversionedVersion: The version of data stored without one. Defaults to 1.
///   - versionKey: The key of the version; `nil` keeps `ArchiveVersioned.defaultVersionKey`.
///   - className: The class name archives use for the type, as `ArchivedClassNaming` has it; `nil`
///     keeps the default (the type's unqualified name) and accepts objects of any class.
///   - formerClassNames: Further class names accepted when decoding.
///   - codableParameters: For a generic type, the parameters that must be `Codable` for it to be,
///     such as `["Element"]`; `nil` (the default) takes those that appear in the types of its
///     archived properties (or of its cases' values), as synthesized `Codable` needs them. Give it
///     when a parameter appears only in a type that is `Codable` whatever it is (a phantom tag in
///     an identifier type): `[]` conditions on none.
@attached(
    extension,
    conformances: Decodable,
    Encodable,
    ArchiveVersioned,
    ArchiveMigrating,
    ArchivedClassNaming,
    ArchiveObjectEncodable,
    ArchiveObjectDecodable,
    ArchiveRawValueCodable,
    names: named(CodingKeys),
    named(init(from:)),
    named(encode(to:)),
    named(encodeArchiveFields(to:)),
    named(init(archiveFields:)),
    named(archiveVersion),
    named(unversionedArchiveVersion),
    named(archiveVersionKey),
    named(PreviousArchiveVersion),
    named(archivedClassName),
    named(acceptedArchivedClassNames),
    named(archiveObjectKeys),
    named(encodeArchiveObject(to:)),
    named(init(archiveObject:)),
    named(init(archiveRawValue:decoder:))
)
@attached(
    member,
    conformances: ArchiveObjectDecodable,
    Decodable,
    names: named(init(from:)),
    named(encode(to:)),
    named(init(archiveFields:)),
    named(init(archiveObject:)),
    named(init)
)
public macro Archivable(
    version: Int = 1,
    previousVersion: (any Decodable.Type)? = nil,
    unversionedVersion: Int = 1,
    versionKey: String? = nil,
    className: String? = nil,
    formerClassNames: [String] = [],
    codableParameters: [String]? = nil
) = #externalMacro(module: "KeyedArchivingMacrosPlugin", type: "ArchivableMacro")

/// Generates the `Codable` conformance of a class that may be subclassed, as `@Archivable` does for
/// other types.
///
/// The class's object holds its superclasses' fields and its own, with its class chain in
/// `$classes`, as a hand-written conformance that calls `super.encode(to:)` and
/// `super.init(from:)` writes it. Its subclasses take `@ArchivableClass` too, or `@Archivable`
/// when they are final:
///
/// ```swift
/// @ArchivableClass
/// class Animal {
///     var name: String
/// }
///
/// @ArchivableClass
/// class Dog: Animal {
///     var breed = "mixed"
/// }
/// ```
///
/// A class that is not final needs this macro rather than `@Archivable`: Swift cannot compile a
/// subclass of a class whose macro declares conformances it does not add (swiftlang/swift#89151),
/// and `@Archivable` declares those of every shape it supports. Class names, migration and the
/// `ArchiveUnknownFields` property are not supported in hierarchies yet; a subclass is versioned
/// by its root class. See <doc:ArchivableExpansion>.
/// - Parameters:
///   - version: The version the root class writes, 1 or more.
///   - unversionedVersion: The version of data stored without one. Defaults to 1.
///   - versionKey: The key of the version; `nil` keeps `ArchiveVersioned.defaultVersionKey`.
@attached(
    extension,
    conformances: Decodable,
    Encodable,
    ArchiveVersioned,
    ArchiveObjectEncodable,
    ArchiveObjectDecodable,
    names: named(CodingKeys),
    named(encodeArchiveFields(to:)),
    named(archiveVersion),
    named(unversionedArchiveVersion),
    named(archiveVersionKey),
    named(archiveObjectKeys),
    named(encodeArchiveObject(to:))
)
@attached(
    member,
    names: named(init(from:)),
    named(encode(to:)),
    named(init(archiveObject:)),
    named(init)
)
public macro ArchivableClass(
    version: Int = 1,
    unversionedVersion: Int = 1,
    versionKey: String? = nil
) = #externalMacro(module: "KeyedArchivingMacrosPlugin", type: "ArchivableMacro")

/// Names the key a property of an `@Archivable` type is stored under, and the keys it was stored
/// under before: written under the first name, read from the first of the names present.
///
/// ```swift
/// @ArchiveKey("color", "colour") var color: String
/// ```
@attached(peer)
public macro ArchiveKey(_ name: String, _ formerNames: String...) =
    #externalMacro(module: "KeyedArchivingMacrosPlugin", type: "ArchiveAttributeMacro")

/// Leaves a property of an `@Archivable` type out of its archive: it is never written and takes its
/// initial value, which it must have, when decoded.
@attached(peer)
public macro ArchiveIgnored() = #externalMacro(module: "KeyedArchivingMacrosPlugin", type: "ArchiveAttributeMacro")

/// Lets a property of an `@Archivable` type fall back to its initial value, which it must have,
/// when the stored value has another type or fails to decode, instead of failing the whole value.
///
/// Each fallback is reported: to the `ArchiveFallbackRecorder` in the decoder's `userInfo`, or
/// else as a warning on standard error.
@attached(peer)
public macro ArchiveFallback() = #externalMacro(module: "KeyedArchivingMacrosPlugin", type: "ArchiveAttributeMacro")

/// Archives a property of an `@Archivable` type as the value it reads, not as the storage of an
/// attribute it carries that `@Archivable` would take for a property wrapper: for an attribute
/// that is no wrapper (a macro of your own, a global actor whose name does not end in `Actor`),
/// or a wrapper whose value alone should be archived. Decoding assigns the property.
///
/// ```swift
/// @ArchiveUnwrapped @Indexed var title: String
/// ```
@attached(peer)
public macro ArchiveUnwrapped() = #externalMacro(module: "KeyedArchivingMacrosPlugin", type: "ArchiveAttributeMacro")

/// Marks the case of an `@Archivable` enum that a stored case or raw value the enum does not know
/// decodes to, reported like a fallback. The case has no associated values.
@attached(peer)
public macro ArchiveUnknownCase() =
    #externalMacro(module: "KeyedArchivingMacrosPlugin", type: "ArchiveAttributeMacro")
