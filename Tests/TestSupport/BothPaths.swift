//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

public import Foundation
public import KeyedArchiving
public import PropertyLists

/// The coders' two paths side by side: the direct one (``DirectArchiving/enabled``) and the
/// `Codable` one (``DirectArchiving/disabled``), with what a test compares of their results.
public enum BothPaths {
    /// The two settings, direct first.
    public static let modes: [DirectArchiving] = [.enabled, .disabled]

    /// An encoder on one path.
    public static func encoder(_ mode: DirectArchiving) -> KeyedArchiveEncoder {
        var encoder = KeyedArchiveEncoder()
        encoder.directArchiving = mode
        return encoder
    }

    /// A decoder on one path.
    public static func decoder(_ mode: DirectArchiving, limits: PropertyListLimits = .default) -> KeyedArchiveDecoder {
        var decoder = KeyedArchiveDecoder()
        decoder.directArchiving = mode
        decoder.limits = limits
        return decoder
    }

    /// A decoding's value, or its error as everything a caller can compare: the case, the type or
    /// key, the coding path, the description and the underlying error's code.
    public enum Outcome<Value: Equatable>: Equatable {
        case value(Value)
        case failure(String)
    }

    /// What decoding `data` as `type` on one path gives.
    public static func outcome<T: Decodable & Equatable>(
        _ type: T.Type,
        from data: Data,
        _ mode: DirectArchiving,
        limits: PropertyListLimits = .default
    ) -> Outcome<T> {
        do {
            return .value(try Self.decoder(mode, limits: limits).decode(type, from: data))
        } catch {
            return .failure(Self.describe(error))
        }
    }

    /// An error as text holding everything a caller can compare.
    public static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(type(of: error)): \(error)" }
        func describe(_ context: DecodingError.Context) -> String {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            let code = (context.underlyingError as? KeyedArchiveError).map { " code \($0.code)" } ?? ""
            return "at \(path.joined(separator: ".")): \(context.debugDescription)\(code)"
        }
        switch error {
        case .keyNotFound(let key, let context): return "keyNotFound \(key.stringValue) " + describe(context)
        case .typeMismatch(let type, let context): return "typeMismatch \(type) " + describe(context)
        case .valueNotFound(let type, let context): return "valueNotFound \(type) " + describe(context)
        case .dataCorrupted(let context): return "dataCorrupted " + describe(context)
        @unknown default: return "\(error)"
        }
    }

    /// The differences between the paths over `data` with every byte changed by `mask` in turn,
    /// as text (empty when they agree), and how many of the damaged archives failed to decode.
    public static func damagedByteDifferences<T: Decodable & Equatable>(
        _ type: T.Type,
        in data: Data,
        mask: UInt8
    ) -> (differences: [String], failures: Int) {
        var differences: [String] = []
        var failures = 0
        for offset in data.indices {
            var damaged = data
            damaged[offset] ^= mask
            let direct = Self.outcome(type, from: damaged, .enabled)
            let codable = Self.outcome(type, from: damaged, .disabled)
            if case .failure = direct { failures += 1 }
            if direct != codable { differences.append("byte \(offset): \(direct) vs \(codable)") }
        }
        return (differences, failures)
    }
}
