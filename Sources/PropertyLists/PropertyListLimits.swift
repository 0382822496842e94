//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Bounds that reading a property list, and decoding an archive, enforce, so hostile input fails
/// fast with an error instead of exhausting the stack, memory or time.
///
/// The defaults admit every property list and archive Apple's tools and this package write in
/// practice; tighten them for input you do not trust, or loosen them for unusually large files:
///
/// ```swift
/// var limits = PropertyListLimits.default
/// limits.maximumInputSize = 1 << 20
/// limits.maximumDepth = 64
/// let value = try PropertyListValue(parsing: bytes, limits: limits)
/// ```
///
/// ## Decoded size
///
/// A binary property list or keyed archive can refer to one value from many places, so a few
/// kilobytes can describe a tree with billions of nodes ("billion laughs"). Every reader and
/// decoder counts the *decoded size* of what it produces — 8 bytes for every value plus the bytes
/// of every string and data value, with a shared value counted again at every place that holds
/// it — and fails with a `decodedSizeLimitExceeded` error when that exceeds the
/// ``decodedSizeBudget(forInputSize:)``: ``decodedSizeAllowance``, or ``maximumExpansion`` times
/// the size of the input, whichever is larger. The check is made on sizes computed once per
/// distinct value, so failing costs no more time or memory than the input itself.
///
/// The lazy ``BinaryPropertyListReader/object(at:)`` checks the object count and the bounds of
/// every object, but leaves the per-value limits to whoever builds values from what it returns;
/// ``BinaryPropertyListReader/topLevelValue()`` and every other reader enforce them all.
public struct PropertyListLimits: Hashable, Sendable {
    /// The largest input accepted, in bytes. Defaults to 1 GiB.
    public var maximumInputSize: Int

    /// The deepest nesting of arrays, dictionaries and archived objects allowed. Defaults to 512.
    ///
    /// Readers that recurse also stop, with the same error, where the current thread's stack runs
    /// short (they keep 64 KiB of it free), whatever this limit. On a 512 KiB stack, the size of
    /// Apple's secondary threads, an optimized build reads about 440 levels of property-list
    /// containers, and about 280 levels of objects through `KeyedArchiveDecoder`, each of whose
    /// levels also runs the type's `init(from:)`; debug builds stop sooner. Read deeper values on
    /// a thread with a larger stack.
    public var maximumDepth: Int

    /// The most objects a binary property list may declare, or values an XML property list may
    /// hold. Defaults to 2²⁶ (67,108,864).
    public var maximumObjectCount: Int

    /// The most elements one array, or entries one dictionary, may hold. Defaults to 2²⁸
    /// (268,435,456), which admits a large `[UInt8]` archived as an `NSArray` of numbers.
    public var maximumCollectionCount: Int

    /// The longest string accepted, in bytes as stored (ASCII or UTF-16 in binary, UTF-8 in XML).
    /// Defaults to 256 MiB.
    public var maximumStringLength: Int

    /// The largest data value accepted, in bytes. Defaults to 1 GiB.
    public var maximumDataLength: Int

    /// The decoded size that is always allowed, however small the input; see "Decoded size" above.
    /// Defaults to 64 MiB.
    public var decodedSizeAllowance: Int

    /// How many times larger than its input the decoded size may grow beyond
    /// ``decodedSizeAllowance``; see "Decoded size" above. Defaults to 32.
    public var maximumExpansion: Int

    /// Creates limits.
    /// - Parameters:
    ///   - maximumDepth: The deepest nesting of containers and objects allowed.
    ///   - maximumInputSize: The largest input accepted, in bytes.
    ///   - maximumObjectCount: The most objects or values an input may hold.
    ///   - maximumCollectionCount: The most elements or entries one container may hold.
    ///   - maximumStringLength: The longest string accepted, in bytes as stored.
    ///   - maximumDataLength: The largest data value accepted, in bytes.
    ///   - decodedSizeAllowance: The decoded size always allowed.
    ///   - maximumExpansion: How many times larger than its input the decoded size may grow.
    public init(
        maximumDepth: Int = 512,
        maximumInputSize: Int = 1 << 30,
        maximumObjectCount: Int = 1 << 26,
        maximumCollectionCount: Int = 1 << 28,
        maximumStringLength: Int = 1 << 28,
        maximumDataLength: Int = 1 << 30,
        decodedSizeAllowance: Int = 1 << 26,
        maximumExpansion: Int = 32
    ) {
        self.maximumDepth = maximumDepth
        self.maximumInputSize = maximumInputSize
        self.maximumObjectCount = maximumObjectCount
        self.maximumCollectionCount = maximumCollectionCount
        self.maximumStringLength = maximumStringLength
        self.maximumDataLength = maximumDataLength
        self.decodedSizeAllowance = decodedSizeAllowance
        self.maximumExpansion = maximumExpansion
    }

    /// The default limits.
    public static let `default` = PropertyListLimits()

    /// The largest decoded size allowed for an input of `inputSize` bytes: ``decodedSizeAllowance``
    /// or ``maximumExpansion`` × `inputSize`, whichever is larger.
    /// - Parameter inputSize: The size of the input, in bytes (for an archive already in memory,
    ///   the decoded size of its distinct objects).
    /// - Returns: The budget, at most `Int.max / 4` so that sums of sizes within it cannot overflow.
    public func decodedSizeBudget(forInputSize inputSize: Int) -> Int {
        let cap = Int.max / 4
        let scaled = max(0, self.maximumExpansion).multipliedReportingOverflow(by: max(0, inputSize))
        let expanded = scaled.overflow ? cap : min(scaled.partialValue, cap)
        return min(max(max(0, self.decodedSizeAllowance), expanded), cap)
    }

    /// The decoded size every value counts for itself, in bytes, besides its string or data bytes.
    public static let decodedValueSize = 8
}
