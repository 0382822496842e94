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

/// The limits every target reads with: the defaults, with a decoded-size allowance of 1 MiB
/// instead of 64 MiB, so that an input whose shared objects expand ("billion laughs") is refused
/// after little work rather than costing seconds per run within the default budget.
public let fuzzLimits: PropertyListLimits = {
    var limits = PropertyListLimits.default
    limits.decodedSizeAllowance = 1 << 20
    return limits
}()
