//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// Conversion of caller-supplied bytes into the contiguous array the readers work on.
package enum ByteInput {
    /// The bytes of `input` as an array, copied region by region rather than byte by byte.
    package static func array(_ input: some DataProtocol) -> [UInt8] {
        if let array = input as? [UInt8] { return array }
        let count = input.count
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = input.copyBytes(to: buffer)
        }
    }
}
