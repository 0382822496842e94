//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A tree of strings in arrays, the shape most of the hostile archives have.
indirect enum StringTree: Decodable {
    case leaf(String)
    case node([StringTree])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let string = try? container.decode(String.self) {
            self = .leaf(string)
        } else {
            self = .node(try container.decode([StringTree].self))
        }
    }
}
