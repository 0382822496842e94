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

/// One problem that ``ArchiveValidator`` found in a keyed archive.
///
/// ```swift
/// for finding in ArchiveValidator().validate(bytes: bytes) {
///     print(finding)  // invalidReference at UID 4: NS.objects[1] refers to UID 99, beyond the 6 objects
/// }
/// ```
public struct ArchiveFinding: Hashable, Sendable, CustomStringConvertible {
    /// The kind of problem, with the same codes ``KeyedArchiveError`` uses.
    public var code: KeyedArchiveError.Code
    /// The object the problem is in — or, for a `$top` entry, the object it refers to — when there is one.
    public var uid: UID?
    /// What is wrong and where inside the object, such as `NS.objects[1] refers to UID 99, beyond the
    /// 6 objects`.
    public var message: String

    /// Creates a finding.
    /// - Parameters:
    ///   - code: The kind of problem.
    ///   - uid: The object the problem is in.
    ///   - message: What is wrong and where.
    public init(_ code: KeyedArchiveError.Code, uid: UID? = nil, message: String) {
        self.code = code
        self.uid = uid
        self.message = message
    }

    /// `<code> at UID <n>: <message>`, or `<code>: <message>` without a UID.
    public var description: String {
        if let uid { return "\(self.code) at UID \(uid.rawValue): \(self.message)" }
        return "\(self.code): \(self.message)"
    }
}
