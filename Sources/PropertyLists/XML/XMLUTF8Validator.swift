//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Finds the first byte that breaks UTF-8 well-formedness (RFC 3629): overlong forms, surrogates,
/// scalars above U+10FFFF and truncated sequences are all rejected.
enum XMLUTF8Validator {
    /// The offset of the first byte that does not start a well-formed UTF-8 sequence, or `nil` if
    /// every byte from `start` on is well formed.
    /// - Complexity: O(*n*), eight ASCII bytes per step.
    static func firstInvalidOffset(in bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var index = start
        while index < count {
            while index &+ 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 != 0 { break }
                index &+= 8
            }
            guard index < count else { return nil }
            let lead = base[index]
            if lead < 0x80 {
                index &+= 1
                continue
            }
            let length: Int
            let secondRange: ClosedRange<UInt8>
            switch lead {
            case 0xC2...0xDF:
                length = 2
                secondRange = 0x80...0xBF
            case 0xE0:
                length = 3
                secondRange = 0xA0...0xBF
            case 0xED:
                length = 3
                secondRange = 0x80...0x9F
            case 0xE1...0xEC, 0xEE...0xEF:
                length = 3
                secondRange = 0x80...0xBF
            case 0xF0:
                length = 4
                secondRange = 0x90...0xBF
            case 0xF1...0xF3:
                length = 4
                secondRange = 0x80...0xBF
            case 0xF4:
                length = 4
                secondRange = 0x80...0x8F
            default:
                return index
            }
            guard count - index >= length, secondRange.contains(base[index + 1]) else { return index }
            var next = index + 2
            while next < index + length {
                guard base[next] & 0xC0 == 0x80 else { return index }
                next += 1
            }
            index = next
        }
        return nil
    }
}
