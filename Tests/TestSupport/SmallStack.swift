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
import Synchronization

/// Running code on a thread whose stack is as small as the ones deep input must not overflow.
public enum SmallStack {
    /// The stack of Apple's secondary threads (`Thread`, GCD workers), the smallest a reader meets.
    public static let secondaryThreadSize = 512 << 10

    /// Runs `body` on a new thread with `size` bytes of stack, waits for it, and returns what it
    /// returned or rethrows what it threw. A stack overflow in `body` ends the test process.
    public static func run<T: Sendable>(
        size: Int = secondaryThreadSize,
        _ body: @escaping @Sendable () throws -> T
    ) throws -> T {
        let outcome = Outcome<T>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let result = Result { try body() }
            outcome.result.withLock { $0 = result }
            done.signal()
        }
        thread.stackSize = size
        thread.start()
        done.wait()
        guard let result = outcome.result.withLock({ $0 }) else { throw CancellationError() }
        return try result.get()
    }

    /// The thread's result, handed back to the waiting one.
    private final class Outcome<T: Sendable>: Sendable {
        let result = Mutex<Result<T, any Error>?>(nil)
    }
}
