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

/// The limits every target reads with: the defaults, with a decoded-size budget of at most
/// 256 KiB (an allowance of 256 KiB instead of 64 MiB, and an expansion of 16 instead of 32 times
/// the input, which libFuzzer grows to about 16 KiB), so that an input whose shared objects expand
/// ("billion laughs") is refused after little work.
///
/// A target does several passes over what it read (FuzzBinaryPlist: a binary and an XML round trip
/// and two comparisons). With the 1 MiB allowance used before, 166 bytes of arrays sharing their
/// elements 16 levels deep (`FailCases/FuzzBinaryPlist/shared-arrays-within-a-megabyte.bplist`)
/// read as 131,071 values, 5.5 MB of XML, and took 7 s in the debug AddressSanitizer build, past
/// the smoke run's 5-second timeout.
public let fuzzLimits: PropertyListLimits = {
    var limits = PropertyListLimits.default
    limits.decodedSizeAllowance = 1 << 18
    limits.maximumExpansion = 16
    return limits
}()
