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
    ///
    /// What `body` captures is released on the calling thread: releasing a deeply nested value
    /// recurses too, and must not happen on the small stack after `body` is done.
    public static func run<T: Sendable>(
        size: Int = secondaryThreadSize,
        _ body: @escaping @Sendable () throws -> T
    ) throws -> T {
        let job = Job(body)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            job.run()
            done.signal()
        }
        thread.stackSize = size
        thread.start()
        done.wait()
        return try job.finish().get()
    }

    /// The body to run and its result, handed between the two threads.
    private final class Job<T: Sendable>: Sendable {
        private let body: Mutex<(@Sendable () throws -> T)?>
        private let result = Mutex<Result<T, any Error>?>(nil)

        init(_ body: @escaping @Sendable () throws -> T) {
            self.body = Mutex(body)
        }

        /// Runs the body, on the small thread; the job keeps its own reference to it.
        func run() {
            guard let body = self.body.withLock({ $0 }) else { return }
            let outcome = Result { try body() }
            self.result.withLock { $0 = outcome }
        }

        /// Drops the body and takes the result, on the calling thread.
        func finish() -> Result<T, any Error> {
            self.body.withLock { $0 = nil }
            return self.result.withLock { $0.take() } ?? .failure(CancellationError())
        }
    }
}
