//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Tells a recursive reader when the current thread's stack is close to running out, so that
/// deeply nested input fails with an error instead of overflowing the stack.
///
/// A depth limit alone cannot promise that. The stack a level takes depends on the build (debug
/// frames are several times larger than release ones), on the caller's code between levels (an
/// `init(from:)`), and on the thread: Apple's secondary threads have 512 KiB. So each reader keeps
/// its depth limit and also asks ``hasRoom()`` once per level.
///
/// The thread's stack bounds are read only once recursion has used ``unmeasuredAllowance`` bytes
/// below the address where the guard was made, because reading them can cost tens of
/// microseconds (glibc parses `/proc/self/maps` for the main thread). Until then a check is one
/// comparison. Where the bounds cannot be read, or the stack in use is not the thread's own (an
/// AddressSanitizer fake stack), the guard always reports room and the depth limit stands alone.
package struct StackGuard: Sendable {
    /// Stack use below the guard's origin before the thread's bounds are read.
    package static let unmeasuredAllowance: UInt = 32 << 10
    /// Stack kept free below the deepest level allowed, for the frames of one more level and the
    /// error's construction; a quarter of the stack when the stack is smaller than four times this.
    package static let reserve: UInt = 64 << 10

    /// Nesting levels a hot reader may leave unchecked: a few levels (under 100 KB even in debug
    /// builds) that any caller's stack has room for, and deeper than most values go, so shallow
    /// values pay nothing. Every level below them is checked.
    package static let uncheckedDepth = 8

    /// Addresses at or below this make ``hasRoom()`` look closer; above it, there is room.
    private var floor: UInt
    /// The lowest and highest address of the thread's stack, once read; both 0 before.
    private var low: UInt = 0
    private var high: UInt = 0
    private var isMeasured = false

    /// Creates a guard for recursion that starts at the caller's frame.
    @inline(__always)
    package init() {
        let origin = Self.currentAddress()
        self.floor = origin > Self.unmeasuredAllowance ? origin - Self.unmeasuredAllowance : 0
    }

    /// Whether the current thread has room for another level of recursion.
    @inline(__always)
    package mutating func hasRoom() -> Bool {
        let here = Self.currentAddress()
        return here > self.floor || self.checkDeep(here)
    }

    /// The slow path of ``hasRoom()``: reads the bounds the first time, then compares against them.
    @inline(never)
    private mutating func checkDeep(_ here: UInt) -> Bool {
        if !self.isMeasured {
            self.isMeasured = true
            guard let (low, high) = Self.threadStackBounds(), low < high else {
                self.floor = 0
                return true
            }
            let reserve = min(Self.reserve, (high - low) / 4)
            (self.low, self.high, self.floor) = (low, high, low + reserve)
        }
        // An address outside the thread's stack (a sanitizer's fake stack) says nothing about it.
        guard here >= self.low, here < self.high else { return true }
        return here > self.floor
    }

    /// An address in the caller's frame.
    @inline(__always)
    private static func currentAddress() -> UInt {
        var marker: UInt8 = 0
        return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    }

    /// The lowest and one past the highest address of the current thread's stack, if the platform
    /// tells.
    private static func threadStackBounds() -> (low: UInt, high: UInt)? {
        #if canImport(Darwin)
        let thread = pthread_self()
        let high = UInt(bitPattern: pthread_get_stackaddr_np(thread))
        let size = UInt(pthread_get_stacksize_np(thread))
        return high > size ? (high - size, high) : nil
        #elseif canImport(Glibc) || canImport(Musl)
        // `pthread_getattr_np` is a GNU extension the C module does not import; look it up.
        typealias GetAttributes = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
        guard let symbol = dlsym(nil, "pthread_getattr_np") else { return nil }
        let getAttributes = unsafeBitCast(symbol, to: GetAttributes.self)
        var attributes = pthread_attr_t()
        guard getAttributes(pthread_self(), &attributes) == 0 else { return nil }
        defer { pthread_attr_destroy(&attributes) }
        var address: UnsafeMutableRawPointer?
        var size = 0
        guard pthread_attr_getstack(&attributes, &address, &size) == 0, let address, size > 0 else { return nil }
        let low = UInt(bitPattern: address)
        return (low, low + UInt(size))
        #else
        return nil
        #endif
    }
}
