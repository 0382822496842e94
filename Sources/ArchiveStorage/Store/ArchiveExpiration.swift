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

/// When a stored entry expires. An expired entry is never returned, whether or not it has been
/// purged from disk yet.
public enum ArchiveExpiration: Sendable, Hashable {
    /// The entry never expires.
    case never
    /// The entry expires at the given instant.
    case at(Date)
    /// The entry expires the given duration after it is saved, by the store's clock.
    case after(Duration)

    /// The instant of expiry in seconds since 1970 for an entry saved at `now`; `+infinity` for
    /// ``never``.
    func expiry(savedAt now: Date) -> Double {
        switch self {
        case .never:
            return .infinity
        case .at(let date):
            return date.timeIntervalSince1970
        case .after(let duration):
            let (seconds, attoseconds) = duration.components
            return now.timeIntervalSince1970 + Double(seconds) + Double(attoseconds) / 1e18
        }
    }
}
