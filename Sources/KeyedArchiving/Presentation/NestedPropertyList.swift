//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import PropertyLists

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A property list or keyed archive found inside a data value, as apps often store them.
internal enum NestedPropertyList {
    /// A keyed archive.
    case archive(KeyedArchive, format: PropertyListFormat)
    /// Any other property list.
    case propertyList(PropertyListValue, format: PropertyListFormat)

    /// How many data values deep the printers look for nested property lists. Each level is a whole
    /// property list, so this bounds recursion on crafted input.
    static let maximumNesting = 16

    /// The property list in `data`, or `nil` when it does not start like one or does not parse.
    ///
    /// A property list that claims to be an archive but is not a well-formed one is returned as a
    /// plain property list.
    init?(data: Data, limits: PropertyListLimits) {
        guard PropertyListFormat(detecting: data.prefix(64)) != nil,
            let (value, format) = try? PropertyListValue.parse(data, limits: limits)
        else { return nil }
        if let archive = try? KeyedArchive(detecting: value) {
            self = .archive(archive, format: format)
        } else {
            self = .propertyList(value, format: format)
        }
    }

    /// `binary keyed archive`, `XML property list` and so on.
    var description: String {
        switch self {
        case .archive(_, let format): return "\(Self.name(of: format)) keyed archive"
        case .propertyList(_, let format): return "\(Self.name(of: format)) property list"
        }
    }

    private static func name(of format: PropertyListFormat) -> String {
        switch format {
        case .binary: return "binary"
        case .xml: return "XML"
        }
    }
}
