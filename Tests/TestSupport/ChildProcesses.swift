//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation

/// Whether the tests can start other processes (a `storage-probe`, the `sqlite3` command,
/// `karchive`): not on iOS, tvOS, watchOS and visionOS, which have no `Process`. Tests that start
/// one are marked `.enabled(if: ChildProcesses.areAvailable)`: a limit of the platform, not a
/// difference of behaviour.
public enum ChildProcesses {
    /// Whether `Process` can start a program here.
    public static var areAvailable: Bool {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        false
        #else
        true
        #endif
    }
}

#if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
/// `Foundation.Process`'s shape where the platform has none, so that the tests that start
/// another process compile there; ``run()`` throws, and those tests are not enabled.
public final class Process {
    /// Why a process ended.
    public enum TerminationReason: Sendable {
        case exit
        case uncaughtSignal
    }

    /// What ``run()`` throws: there are no processes to start.
    public struct Unavailable: Error {}

    public var executableURL: URL?
    public var arguments: [String]?
    public var environment: [String: String]?
    public var standardInput: Any?
    public var standardOutput: Any?
    public var standardError: Any?
    public let processIdentifier: Int32 = 0
    public let terminationStatus: Int32 = -1
    public let terminationReason: TerminationReason = .exit
    public var isRunning: Bool { false }

    public init() {}

    /// Throws ``Unavailable``.
    public func run() throws { throw Unavailable() }
    /// Returns at once.
    public func waitUntilExit() {}
    /// Does nothing.
    public func terminate() {}
}
#endif
