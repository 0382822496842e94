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
public import FoundationEssentials
#else
public import Foundation
#endif

/// A property list value: the tree that binary and XML property lists encode.
///
/// Build values with literals and read them with typed accessors:
///
/// ```swift
/// let value: PropertyListValue = ["name": "Tom", "lives": 9, "tags": ["cat"], "owner": .uid(1)]
/// value["name"]?.stringValue     // "Tom"
/// value["lives"]?.intValue       // 9
/// let bytes = value.serialized(as: .binary)
/// try PropertyListValue(parsing: bytes) == value  // true
/// ```
///
/// Equality is exact: reals and dates compare by their bits (so `nan` equals itself and `0.0`
/// differs from `-0.0`), a 32-bit ``float(_:)`` differs from a 64-bit ``real(_:)``, and
/// dictionaries compare their entries regardless of order.
public enum PropertyListValue: Sendable {
    /// A string.
    case string(String)
    /// An integer from `Int64.min` through `UInt64.max`.
    case integer(PropertyListInteger)
    /// A 64-bit floating-point number.
    case real(Double)
    /// A 32-bit floating-point number, as binary property lists can store it.
    case float(Float)
    /// A Boolean.
    case bool(Bool)
    /// A point in time.
    case date(Date)
    /// Raw bytes.
    case data(Data)
    /// An ordered list of values.
    case array([PropertyListValue])
    /// A dictionary with string keys whose order is kept as read or inserted.
    case dictionary(PropertyListDictionary)
    /// An object reference, as keyed archives use.
    case uid(UID)
}

extension PropertyListValue: Hashable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.string(let l), .string(let r)): return l == r
        case (.integer(let l), .integer(let r)): return l == r
        case (.real(let l), .real(let r)): return l.bitPattern == r.bitPattern
        case (.float(let l), .float(let r)): return l.bitPattern == r.bitPattern
        case (.bool(let l), .bool(let r)): return l == r
        case (.date(let l), .date(let r)):
            return l.timeIntervalSinceReferenceDate.bitPattern == r.timeIntervalSinceReferenceDate.bitPattern
        case (.data(let l), .data(let r)): return l == r
        case (.array(let l), .array(let r)): return l == r
        case (.dictionary(let l), .dictionary(let r)): return l == r
        case (.uid(let l), .uid(let r)): return l == r
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let v):
            hasher.combine(0 as UInt8)
            hasher.combine(v)
        case .integer(let v):
            hasher.combine(1 as UInt8)
            hasher.combine(v)
        case .real(let v):
            hasher.combine(2 as UInt8)
            hasher.combine(v.bitPattern)
        case .float(let v):
            hasher.combine(3 as UInt8)
            hasher.combine(v.bitPattern)
        case .bool(let v):
            hasher.combine(4 as UInt8)
            hasher.combine(v)
        case .date(let v):
            hasher.combine(5 as UInt8)
            hasher.combine(v.timeIntervalSinceReferenceDate.bitPattern)
        case .data(let v):
            hasher.combine(6 as UInt8)
            hasher.combine(v)
        case .array(let v):
            hasher.combine(7 as UInt8)
            hasher.combine(v)
        case .dictionary(let v):
            hasher.combine(8 as UInt8)
            hasher.combine(v)
        case .uid(let v):
            hasher.combine(9 as UInt8)
            hasher.combine(v)
        }
    }
}

extension PropertyListValue {
    /// Reads a property list in either format, detecting which from the bytes.
    ///
    /// - Parameters:
    ///   - bytes: A binary (`bplist00`) or XML property list.
    ///   - limits: The bounds to enforce while reading.
    /// - Throws: ``PropertyListError`` if the bytes are not a well-formed property list or exceed `limits`.
    public init(parsing bytes: some DataProtocol, limits: PropertyListLimits = .default) throws(PropertyListError) {
        self = try Self.parse(bytes, limits: limits).value
    }

    /// Reads a property list in either format and reports which format it was.
    ///
    /// - Parameters:
    ///   - bytes: A binary (`bplist00`) or XML property list.
    ///   - limits: The bounds to enforce while reading.
    /// - Returns: The value and the format it was read from.
    /// - Throws: ``PropertyListError`` if the bytes are not a well-formed property list or exceed `limits`.
    public static func parse(
        _ bytes: some DataProtocol,
        limits: PropertyListLimits = .default
    ) throws(PropertyListError) -> (value: PropertyListValue, format: PropertyListFormat) {
        guard bytes.count <= limits.maximumInputSize else {
            throw PropertyListError(
                .sizeLimitExceeded,
                reason: "input of \(bytes.count) bytes exceeds the limit of \(limits.maximumInputSize)"
            )
        }
        // Contiguous input (`Data`, arrays) is read in place, without a copy.
        let inPlace = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(PropertyListError) -> PropertyListValue? in
                guard PropertyListFormat(detecting: buffer.prefix(64)) == .binary else { return nil }
                return try BinaryPropertyListReader.topLevelValue(of: buffer, limits: limits)
            }
        }
        if let value = try inPlace?.get() { return (value, .binary) }
        let array = ByteInput.array(bytes)
        switch PropertyListFormat(detecting: array.prefix(64)) {
        case .binary:
            return (try BinaryPropertyListReader(bytes: array, limits: limits).topLevelValue(), .binary)
        case .xml:
            return (try XMLPropertyListReader(limits: limits).read(array), .xml)
        case nil:
            throw PropertyListError(.unknownFormat, offset: 0, reason: "neither bplist00 nor XML")
        }
    }

    /// Writes the value as a property list.
    ///
    /// Binary output follows CoreFoundation's rules: minimal integer, offset and reference widths,
    /// ASCII strings as ASCII and others as UTF-16BE, equal leaf values written once. XML output is
    /// what Foundation's `PropertyListSerialization` writes. Both are deterministic.
    /// - Parameter format: The encoding to produce. Defaults to ``PropertyListFormat/binary``.
    /// - Returns: The encoded bytes.
    public func serialized(as format: PropertyListFormat = .binary) -> Data {
        switch format {
        case .binary: return Data(BinaryPropertyListWriter().write(self))
        case .xml: return Data(XMLPropertyListWriter().write(self))
        }
    }
}
