//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Bounds that reading a property list enforces, so hostile input fails fast instead of exhausting
/// the stack, memory or time.
///
/// The defaults admit every property list Apple's tools write in practice.
public struct PropertyListLimits: Hashable, Sendable {
    /// The deepest nesting of arrays and dictionaries allowed. Defaults to 512.
    public var maximumDepth: Int

    /// The largest input accepted, in bytes. Defaults to 1 GiB.
    public var maximumInputSize: Int

    /// Creates limits.
    /// - Parameters:
    ///   - maximumDepth: The deepest nesting of arrays and dictionaries allowed.
    ///   - maximumInputSize: The largest input accepted, in bytes.
    public init(maximumDepth: Int = 512, maximumInputSize: Int = 1 << 30) {
        self.maximumDepth = maximumDepth
        self.maximumInputSize = maximumInputSize
    }

    /// The default limits.
    public static let `default` = PropertyListLimits()
}
