//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The compile-time check that an `@Archivable` subclass's superclass archives its own
/// properties: the generated `init(from:)` passes the superclass to `check(_:)`, and a
/// superclass that is neither `Codable` nor `NSObject` makes it an error that says what to do.
public enum ArchivableSuperclass {
    /// Accepts a `Codable` superclass, `@Archivable` or not: its `encode(to:)` and `init(from:)`
    /// archive its properties in the subclass's object.
    /// - Parameter type: The superclass.
    @inlinable
    public static func check<Superclass: AnyObject & Decodable & Encodable>(_ type: Superclass.Type) {}

    /// Refuses a superclass that is not `Codable`: its properties could not be archived.
    /// - Parameter type: The superclass.
    @available(
        *,
        unavailable,
        message: """
            the superclass of an '@Archivable' class must be 'Codable' (mark it '@ArchivableClass', or conform it to \
            'Codable') or be 'NSObject'; otherwise write this class's 'Codable' conformance by hand
            """
    )
    public static func check(_ type: AnyObject.Type) {}
}
