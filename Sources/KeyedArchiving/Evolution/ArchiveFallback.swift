//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// A stored value that decoding replaced instead of failing: a property marked
/// `@ArchiveFallback` that took its initial value, or an enum case it did not know that decoded to
/// the case marked `@ArchiveUnknownCase`.
///
/// Fallbacks are reported to the ``ArchiveFallbackRecorder`` in the decoder's `userInfo`, with
/// every decoder (`JSONDecoder` and `PropertyListDecoder` included), or else as a warning on
/// standard error: never silently.
public struct ArchiveFallback: Sendable, CustomStringConvertible {
    /// What was replaced.
    public var kind: Kind
    /// The type being decoded, such as `Cat`.
    public var typeName: String
    /// The property's key, or for an unknown case, the stored case name or raw value.
    public var key: String
    /// The coding path of the replaced value, as key strings (array positions as their index).
    public var codingPath: [String]
    /// Why the stored value was not used: the decoding error, or `nil` for an unknown case.
    public var error: (any Error)?

    /// Creates a fallback report.
    public init(kind: Kind, typeName: String, key: String, codingPath: [String], error: (any Error)? = nil) {
        self.kind = kind
        self.typeName = typeName
        self.key = key
        self.codingPath = codingPath
        self.error = error
    }

    /// A one-line summary, such as `Cat.mood at pets.0.mood: initial value used (typeMismatch…)`.
    public var description: String {
        let path = self.codingPath.isEmpty ? "the root" : self.codingPath.joined(separator: ".")
        if self.kind == .unknownCase {
            return "\(self.typeName) at \(path): unknown stored case \(self.key); decoded as the unknown case"
        }
        let reason = self.error.map { " (\($0))" } ?? ""
        return "\(self.typeName).\(self.key) at \(path): the stored value did not decode; initial value used\(reason)"
    }

    /// What a fallback replaced.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        /// A property took its initial value.
        public static let initialValue = Kind(name: "initialValue")
        /// An unknown stored case became the enum's unknown case.
        public static let unknownCase = Kind(name: "unknownCase")

        /// The kind's name.
        public var description: String { self.name }
    }
}

/// Collects the fallbacks of one or more decodings; pass it in a decoder's `userInfo` under
/// `CodingUserInfoKey.archiveFallbackRecorder`.
///
/// ```swift
/// let recorder = ArchiveFallbackRecorder()
/// let decoder = JSONDecoder()
/// decoder.userInfo[.archiveFallbackRecorder] = recorder
/// let settings = try decoder.decode(Settings.self, from: json)
/// for fallback in recorder.fallbacks { log(fallback) }
/// ```
///
/// A recorder is thread-safe: one may serve decodings on several threads.
public final class ArchiveFallbackRecorder: Sendable {
    private let recorded = Locked<[ArchiveFallback]>([])

    /// Creates an empty recorder.
    public init() {}

    /// The fallbacks recorded so far, oldest first.
    public var fallbacks: [ArchiveFallback] {
        self.recorded.withLock { $0 }
    }

    /// Records a fallback.
    public func record(_ fallback: ArchiveFallback) {
        self.recorded.withLock { $0.append(fallback) }
    }

    /// Forgets the fallbacks recorded so far and returns them.
    @discardableResult
    public func removeAll() -> [ArchiveFallback] {
        self.recorded.withLock { recorded in
            defer { recorded.removeAll() }
            return recorded
        }
    }
}

extension CodingUserInfoKey {
    /// The key of the ``ArchiveFallbackRecorder`` that `@Archivable` types report fallbacks to.
    public static let archiveFallbackRecorder = CodingUserInfoKey(rawValue: "KeyedArchiving.fallbackRecorder")!
}
