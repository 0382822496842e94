//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

extension PropertyListValue: CustomStringConvertible {
    /// The value as ``PropertyListTreePrinter`` prints it: one line for a scalar, an indented tree for
    /// a container.
    public var description: String {
        PropertyListTreePrinter().string(from: self)
    }
}
