//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import KeyedArchiving

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Android)
import Android
#endif

/// The hidden file `.archive-store` in a store's directory, shared by every process using it.
///
/// It serves two purposes:
/// - **Write locks.** A writer holds an exclusive lock on one of ``stripeCount`` stripes, chosen
///   by the entry's file name, while it renames or removes that entry (and, in an update, from the
///   read until the write), waiting up to ``lockTimeout`` for it (polled, so that the wait is
///   bounded). On Linux the stripes are byte-range locks owned by an open file
///   description (`F_OFD_SETLK`); elsewhere, and on kernels without them, the whole file is
///   locked with `flock`. Each acquisition opens the file afresh, so the lock also excludes other
///   threads and other store instances of the same process, and closing releases it even when
///   the process dies.
/// - **Generations.** The file is mapped into memory; it holds ``slotCount`` 64-bit counters,
///   one per group of entries. Every write makes its entry's counter odd before the rename and
///   even after it (a sequence lock), under the stripe's lock. A reader notes the counter before
///   reading a file and caches the decoded value only when it was even; a cached value is used
///   only while the counter still has the noted value. A write by any process therefore
///   invalidates the other processes' cached values of that group with no system call on their
///   read path.
/// - **Moves.** The last word of the header counts moves between backends (see
///   ``moveCount``): odd while a move runs, or after one was interrupted.
final class StoreControlFile: @unchecked Sendable {
    /// The file's name in the store directory.
    static let fileName = ".archive-store"
    /// The number of generation counters.
    static let slotCount = 4096
    /// The number of lock stripes. Every slot belongs to the stripe `slot % stripeCount`.
    static let stripeCount = 64
    /// The bytes before the first counter: a magic string and room for later fields.
    static let headerSize = 64
    /// The file's size.
    static let size = headerSize + slotCount * 8
    private static let magic: [UInt8] = Array("KAS-CTRL".utf8)

    /// The offset in the header of the move counter: its last word, after the magic and any
    /// other header field.
    static let moveCountOffset = headerSize - 8

    /// The path of the file.
    let path: String
    /// The mapped counters, or `nil` when the file system cannot map the file; then nothing is
    /// cached in memory.
    private let counters: UnsafeMutableRawPointer?
    /// Serializes this process's access to the mapped words, so that they are never read while
    /// another thread of this instance writes them.
    private let access = Locked(())

    /// Whether the file is on a read-only file system: it is then mapped for reading, and every
    /// write lock throws ``ArchiveStorageError/Code/readOnly``.
    let isReadOnly: Bool

    /// How long a writer waits for another's lock stripe, in seconds: as long as SQLite's busy
    /// timeout.
    let lockTimeout: Double

    /// How writers lock their stripes: ``LockingScheme/native`` but in tests.
    let lockingScheme: LockingScheme

    /// The suspension of the store instance that opened the file: no lock is taken while it is
    /// suspended, and every lock held counts as one of its operations.
    let suspension: StoreSuspension

    /// How writers lock the stripes of the control file.
    enum LockingScheme: Sendable {
        /// A byte-range lock per stripe, owned by the open file description (`F_OFD_SETLK`):
        /// writers of different stripes run at once, in one process or several.
        case stripes
        /// A `flock` of the whole file, where the system has no open-file-description locks
        /// (Darwin; Linux before 3.15): every writer of the store waits for the one that writes.
        case wholeFile

        /// This system's scheme: ``stripes`` on Linux and Android, ``wholeFile`` elsewhere.
        static var native: LockingScheme {
            #if os(Linux) || os(Android)
            .stripes
            #else
            .wholeFile
            #endif
        }
    }

    /// Opens or creates the control file in `directory`; opens it for reading only on a read-only
    /// file system. A write waits up to `lockTimeout` seconds for another writer's lock, which it
    /// takes by `lockingScheme` (tests on Linux choose ``LockingScheme/wholeFile``, Darwin's).
    init(
        directory: String,
        lockTimeout: Double = 60,
        lockingScheme: LockingScheme = .native,
        suspension: StoreSuspension = StoreSuspension()
    ) throws(ArchiveStorageError) {
        self.path = directory + "/" + Self.fileName
        self.lockTimeout = lockTimeout
        self.lockingScheme = lockingScheme
        self.suspension = suspension
        var descriptor = open(self.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        var isReadOnly = false
        if descriptor < 0, errno == EROFS {
            descriptor = open(self.path, O_RDONLY | O_CLOEXEC)
            isReadOnly = true
        }
        guard descriptor >= 0 else { throw DurableFile.failure("open", path: self.path) }
        self.isReadOnly = isReadOnly
        defer { _ = close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw DurableFile.failure("fstat", path: self.path) }
        if Int(status.st_size) < Self.size, isReadOnly {
            // Too short to map: nothing is cached in memory, and the move count is read from the file.
            self.counters = nil
            return
        }
        if Int(status.st_size) < Self.size {
            // Growing is idempotent, so two processes creating the file at once both succeed; each
            // grows it before mapping it, so no mapping reaches past the end of the file.
            guard ftruncate(descriptor, off_t(Self.size)) == 0 else {
                throw DurableFile.failure("ftruncate", path: self.path)
            }
            _ = Self.magic.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        }
        let protection = isReadOnly ? PROT_READ : PROT_READ | PROT_WRITE
        let mapping = mmap(nil, Self.size, protection, MAP_SHARED, descriptor, 0)
        if let mapping, mapping != MAP_FAILED {
            self.counters = mapping + Self.headerSize
        } else {
            self.counters = nil
        }
    }

    deinit {
        if let counters {
            _ = munmap(counters - Self.headerSize, Self.size)
        }
    }

    /// The generation slot of an entry file name: its CRC-32C, modulo ``slotCount``.
    static func slot(forFileName name: String) -> Int {
        Int(CRC32C.checksum(name.utf8) % UInt32(slotCount))
    }

    /// The counter of `slot`, or `nil` when memory caching is unavailable.
    func generation(ofSlot slot: Int) -> UInt64? {
        guard let counters else { return nil }
        return self.access.holdingLock {
            counters.load(fromByteOffset: slot * 8, as: UInt64.self)
        }
    }

    /// The sum of every counter (wrapping), or `nil` when memory caching is unavailable. Every
    /// write by any process adds 2 to it (3 after a writer died mid-write), so its change counts
    /// the writes since it was read.
    ///
    /// - Complexity: O(``slotCount``) loads from shared memory, about a microsecond.
    func generationTotal() -> UInt64? {
        guard let counters else { return nil }
        return self.access.holdingLock {
            var total: UInt64 = 0
            for slot in 0..<Self.slotCount { total &+= counters.load(fromByteOffset: slot * 8, as: UInt64.self) }
            return total
        }
    }

    /// Makes the counter of `slot` odd: a write is in progress. Call with the stripe's lock held.
    func beginWrite(slot: Int) {
        self.advance(slot: slot, toOdd: true)
    }

    /// Makes the counter of `slot` even: the write is complete. Call with the stripe's lock held.
    func endWrite(slot: Int) {
        self.advance(slot: slot, toOdd: false)
    }

    private func advance(slot: Int, toOdd odd: Bool) {
        guard let counters, !self.isReadOnly else { return }
        self.access.holdingLock {
            let current = counters.load(fromByteOffset: slot * 8, as: UInt64.self)
            // An odd counter at the start of a write was left by a writer that died mid-write; it
            // stays odd (uncacheable) until this write ends.
            let isOdd = current & 1 == 1
            let next = current &+ (isOdd == odd ? 2 : 1)
            counters.storeBytes(of: next, toByteOffset: slot * 8, as: UInt64.self)
        }
    }

    /// Runs `body` holding the exclusive write lock of the stripe that `slot` belongs to.
    func withExclusiveLock<R>(
        slot: Int,
        _ body: () throws(ArchiveStorageError) -> R
    ) throws(ArchiveStorageError) -> R {
        try self.withExclusiveLocks(slots: CollectionOfOne(slot), body)
    }

    /// Runs `body` holding the exclusive write locks of every stripe the `slots` belong to, taken
    /// in ascending order (as every writer takes them, so that two never wait on each other).
    func withExclusiveLocks<R>(
        slots: some Sequence<Int>,
        _ body: () throws(ArchiveStorageError) -> R
    ) throws(ArchiveStorageError) -> R {
        let stripes = Set(slots.map { $0 % Self.stripeCount }).sorted()
        if self.isReadOnly {
            throw ArchiveStorageError(.readOnly, path: self.path, reason: "the store is on a read-only file system")
        }
        // A thread that holds this store's locks would wait for itself (or, on the SQLite
        // backend, enter its own transaction again): a write from an `update` body.
        let holder = Self.holder(path: self.path)
        guard Self.holders.withLock({ $0.insert(holder).inserted }) else {
            throw ArchiveStorageError(
                .nestedWrite,
                path: self.path,
                reason: "a write of the store from a write of the same store on the same thread (an update body)"
            )
        }
        defer { _ = Self.holders.withLock { $0.remove(holder) } }
        return try self.suspension.run(path: self.path) { () throws(ArchiveStorageError) in
            let descriptor = open(self.path, O_RDWR | O_CLOEXEC)
            guard descriptor >= 0 else { throw DurableFile.failure("open", path: self.path) }
            defer { _ = close(descriptor) }
            // The byte-range locks of one open file description never conflict with each other; a
            // whole-file lock (where the system has no such locks) covers every stripe at once.
            let deadline = ContinuousClock.now + .seconds(self.lockTimeout)
            for stripe in stripes where try self.lock(descriptor, stripe: stripe, until: deadline) == .wholeFile {
                break
            }
            return try body()
        }
    }

    /// The threads of this process that hold write locks, each with the control file's path.
    private static let holders = Locked(Set<String>())

    /// The entry of ``holders`` for the calling thread and the control file at `path`.
    private static func holder(path: String) -> String {
        #if canImport(Glibc)
        let thread = UInt(pthread_self())
        #else
        let thread = UInt(bitPattern: pthread_self())
        #endif
        return "\(thread) \(path)"
    }

    /// What ``lock(_:stripe:)`` locked.
    private enum LockExtent { case stripe, wholeFile }

    /// Takes the lock of `stripe` on `descriptor`, polling (with pauses growing from 0.1 to 5 ms)
    /// rather than blocking, so that the wait ends at `deadline`.
    /// - Throws: ``ArchiveStorageError/Code/lockTimeout`` at the deadline.
    private func lock(
        _ descriptor: Int32,
        stripe: Int,
        until deadline: ContinuousClock.Instant
    ) throws(ArchiveStorageError) -> LockExtent {
        var pause: UInt32 = 100
        #if os(Linux) || os(Android)
        if self.lockingScheme == .stripes,
            try self.lockStripe(descriptor, stripe: stripe, pause: &pause, until: deadline)
        {
            return .stripe
        }
        #endif
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            guard errno == EWOULDBLOCK else { throw DurableFile.failure("flock", path: self.path) }
            try self.pause(&pause, until: deadline)
        }
        return .wholeFile
    }

    #if os(Linux) || os(Android)
    /// Takes the open-file-description lock of `stripe`, polling as ``lock(_:stripe:until:)``
    /// does; `false` when the kernel has no such locks (before 3.15).
    private func lockStripe(
        _ descriptor: Int32,
        stripe: Int,
        pause: inout UInt32,
        until deadline: ContinuousClock.Instant
    ) throws(ArchiveStorageError) -> Bool {
        var request = flock()
        request.l_type = Int16(F_WRLCK)
        request.l_whence = Int16(SEEK_SET)
        request.l_start = off_t(stripe)
        request.l_len = 1
        request.l_pid = 0
        while true {
            if fcntl(descriptor, linuxOpenFileDescriptionSetLock, &request) == 0 { return true }
            if errno == EINTR { continue }
            if errno == EINVAL { return false }  // A kernel before 3.15: lock the whole file instead.
            guard errno == EAGAIN || errno == EACCES else { throw DurableFile.failure("fcntl", path: self.path) }
            try self.pause(&pause, until: deadline)
        }
    }
    #endif

    /// Sleeps `pause` microseconds and doubles it (up to 5 ms), or throws
    /// ``ArchiveStorageError/Code/lockTimeout`` past `deadline`, or
    /// ``ArchiveStorageError/Code/suspended`` once the store is suspended.
    private func pause(_ pause: inout UInt32, until deadline: ContinuousClock.Instant) throws(ArchiveStorageError) {
        try self.suspension.checkNotSuspended(path: self.path)
        guard ContinuousClock.now < deadline else {
            throw ArchiveStorageError(
                .lockTimeout,
                path: self.path,
                reason: "another writer held the store's write lock for more than \(self.lockTimeout) s"
            )
        }
        usleep(pause)
        pause = min(pause * 2, 5_000)
    }
}

extension StoreControlFile {
    /// How many moves between backends have begun and ended: odd while a move runs (or after one
    /// was interrupted), moved on when it begins and when it ends.
    ///
    /// A store notes it when it opens, and throws ``ArchiveStorageError/Code/storeMoved`` once it
    /// changed: one load from the mapped file, with no system call. Read from the file when it
    /// is not mapped.
    var moveCount: UInt64 {
        guard let counters else { return self.readMoveCount() }
        return self.access.holdingLock {
            (counters - Self.headerSize).load(fromByteOffset: Self.moveCountOffset, as: UInt64.self)
        }
    }

    /// Makes ``moveCount`` odd: a move begins. Call with every stripe's lock held.
    func beginMove() {
        let count = self.moveCount
        self.setMoveCount(count &+ (count & 1 == 1 ? 2 : 1))
    }

    /// Makes ``moveCount`` even: the move (or an interrupted one) is over. Call with a stripe's
    /// lock held.
    func endMove() {
        let count = self.moveCount
        self.setMoveCount(count &+ (count & 1 == 1 ? 1 : 2))
    }

    /// Sets ``moveCount`` back to `count`, what it was before a move that changed nothing. Call
    /// with every stripe's lock held.
    func setMoveCount(_ count: UInt64) {
        guard !self.isReadOnly else { return }
        guard let counters else {
            let descriptor = open(self.path, O_RDWR | O_CLOEXEC)
            guard descriptor >= 0 else { return }
            defer { _ = close(descriptor) }
            withUnsafeBytes(of: count) { _ = pwrite(descriptor, $0.baseAddress, 8, off_t(Self.moveCountOffset)) }
            return
        }
        self.access.holdingLock {
            (counters - Self.headerSize).storeBytes(of: count, toByteOffset: Self.moveCountOffset, as: UInt64.self)
        }
    }

    /// ``moveCount`` read from the file, for a file system that cannot map it; 1 (a move in
    /// progress) when it cannot be read, so that no store trusts its backend then.
    private func readMoveCount() -> UInt64 {
        let descriptor = open(self.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return 1 }
        defer { _ = close(descriptor) }
        var count: UInt64 = 0
        let read = withUnsafeMutableBytes(of: &count) {
            pread(descriptor, $0.baseAddress, 8, off_t(Self.moveCountOffset))
        }
        return read == 8 ? count : 1
    }
}

#if os(Linux) || os(Android)
/// `F_OFD_SETLK` from `<fcntl.h>`, which Swift's Glibc module does not export (it is behind
/// `_GNU_SOURCE`). The value is the same on every Linux architecture.
private let linuxOpenFileDescriptionSetLock: Int32 = 37
#endif
