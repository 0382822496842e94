//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A coding key the encoder makes for array, set and dictionary positions.
///
/// Unlike ``ArchiveCodingKey`` it formats nothing until `stringValue` is read, so pushing an
/// element's position onto the coding path costs no string work on the success path.
internal struct ArchiveEncodingKey: CodingKey, Sendable {
    private enum Storage: Sendable {
        case index(Int)
        case integer(Int)
        case string(String)
    }

    private let storage: Storage

    /// The key of the element at `index` in an array or set: `Index 3`.
    init(index: Int) {
        self.storage = .index(index)
    }

    /// The key of a dictionary entry whose key is the integer `intValue`.
    init(intValue: Int) {
        self.storage = .integer(intValue)
    }

    /// The key of a dictionary entry whose key is the string `stringValue`.
    init(stringValue: String) {
        self.storage = .string(stringValue)
    }

    var stringValue: String {
        switch self.storage {
        case .index(let index): return "Index \(index)"
        case .integer(let value): return String(value)
        case .string(let string): return string
        }
    }

    var intValue: Int? {
        switch self.storage {
        case .index(let index): return index
        case .integer(let value): return value
        case .string: return nil
        }
    }
}
