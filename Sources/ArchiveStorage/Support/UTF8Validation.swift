//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// The string whose UTF-8 form is exactly `bytes`, or `nil` when they are not valid UTF-8.
///
/// `String(validating:as:)` does the same but needs macOS 15; decoding with repair and comparing
/// the bytes back works on every deployment target (repair changes the bytes of invalid input).
func validUTF8String(_ bytes: some Collection<UInt8>) -> String? {
    let string = String(decoding: bytes, as: UTF8.self)
    return string.utf8.elementsEqual(bytes) ? string : nil
}
