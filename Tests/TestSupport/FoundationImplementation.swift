//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Which Foundation the tests run against, for the few expectations that follow what one
/// Foundation does rather than what the formats say.
///
/// Tests branch on ``current`` at run time, so both expectations compile on every platform. The
/// tests that do, and what differs, are listed in CONTRIBUTING.md (*Apple platforms*).
public enum FoundationImplementation: Sendable {
    /// swift-corelibs-foundation (Linux), where every expectation is run.
    case corelibs
    /// Apple's Foundation and CoreFoundation (macOS, iOS and the other Apple platforms).
    case apple

    /// The Foundation this process uses.
    public static var current: Self {
        #if canImport(Darwin)
        return .apple
        #else
        return .corelibs
        #endif
    }
}
