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

/// Locates the first place two values differ, for readable failure messages.
public enum ValueDifference {
    /// A path such as `[3]["tags"][0]` and both sides there, or `nil` when the values are equal.
    public static func first(_ lhs: PropertyListValue, _ rhs: PropertyListValue, path: String = "") -> String? {
        if lhs == rhs { return nil }
        switch (lhs, rhs) {
        case (.array(let l), .array(let r)) where l.count == r.count:
            for (index, (a, b)) in zip(l, r).enumerated() {
                if let found = first(a, b, path: path + "[\(index)]") { return found }
            }
        case (.dictionary(let l), .dictionary(let r)) where Set(l.keys) == Set(r.keys):
            for (key, a) in l {
                if let b = r[key], let found = first(a, b, path: path + "[\"\(key)\"]") { return found }
            }
        default:
            break
        }
        return "at \(path.isEmpty ? "top" : path): \(String(reflecting: lhs)) != \(String(reflecting: rhs))"
    }

    /// As ``first(_:_:path:)``, but dictionaries must also list their keys in the same order: what two documents
    /// read by this package's readers (which keep document order) share when only their spelling differs.
    public static func firstIncludingKeyOrder(
        _ lhs: PropertyListValue,
        _ rhs: PropertyListValue,
        path: String = ""
    ) -> String? {
        if let found = first(lhs, rhs, path: path) { return found }
        switch (lhs, rhs) {
        case (.array(let l), .array(let r)):
            for (index, (a, b)) in zip(l, r).enumerated() {
                if let found = firstIncludingKeyOrder(a, b, path: path + "[\(index)]") { return found }
            }
        case (.dictionary(let l), .dictionary(let r)):
            if l.keys != r.keys { return "at \(path.isEmpty ? "top" : path): keys \(l.keys) != \(r.keys)" }
            for (key, a) in l {
                if let b = r[key], let found = firstIncludingKeyOrder(a, b, path: path + "[\"\(key)\"]") {
                    return found
                }
            }
        default:
            break
        }
        return nil
    }
}
