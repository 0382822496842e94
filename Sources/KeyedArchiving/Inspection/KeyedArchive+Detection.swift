//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import PropertyLists

extension KeyedArchive {
    /// Reads an archive from a property list that claims to be one, or returns `nil` for a plain
    /// property list.
    ///
    /// A property list claims to be an archive when its top level is a dictionary with an
    /// `$archiver` key. Tools that show any property list use this to choose between the resolved
    /// form and the plain one.
    ///
    /// ```swift
    /// if let archive = try KeyedArchive(detecting: value) { … } else { … }
    /// ```
    /// - Parameter propertyList: Any property list.
    /// - Throws: ``KeyedArchiveError`` if the property list claims to be an archive but is not a
    ///   well-formed one, as ``init(propertyList:)`` does.
    public init?(detecting propertyList: PropertyListValue) throws(KeyedArchiveError) {
        guard ArchiveGraphReader<ArchiveTreeList>.claimsToBeArchive(propertyList, ArchiveTreeList()) else { return nil }
        try self.init(propertyList: propertyList)
    }
}
