//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Android)
import Android
#endif

/// An operating-system error: the `errno` value and its description.
struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The `errno` value.
    var code: Int32
    /// The call that failed, such as `open` or `fsync`.
    var call: String

    /// The call and the operating system's reason, such as `open: No such file or directory`.
    var description: String { "\(self.call): \(String(cString: strerror(self.code)))" }
}

/// Whole-file reads and crash-safe whole-file replacement with POSIX calls.
///
/// A replacement writes a temporary file in the destination's directory, flushes it to stable
/// storage, renames it over the destination and flushes the directory, so after a crash at any
/// instant the destination holds either its old bytes or the new ones, never a mixture.
enum DurableFile {
    /// Reads the whole file at `path`, or returns `nil` when there is no such file.
    static func read(atPath path: String) throws(ArchiveStorageError) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw failure("open", path: path)
        }
        defer { _ = close(descriptor) }
        var status = stat()
        let size = fstat(descriptor, &status) == 0 && status.st_size > 0 ? Int(status.st_size) : 0
        // Read straight into the result, one byte larger than the file: a full buffer means the
        // file grew, and the buffer doubles.
        var bytes = [UInt8](repeating: 0, count: size + 1)
        var filled = 0
        while true {
            if filled == bytes.count { bytes.append(contentsOf: repeatElement(0, count: bytes.count)) }
            let count = bytes.withUnsafeMutableBytes { buffer in
                systemRead(descriptor, buffer.baseAddress.map { $0 + filled }, buffer.count - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("read", path: path)
            }
            if count == 0 { break }
            filled += count
        }
        bytes.removeSubrange(filled...)
        return bytes
    }

    /// Replaces the file at `path` with `bytes`, atomically; when `durable`, also flushes the file
    /// and its directory to stable storage before returning.
    static func replace(
        atPath path: String,
        with bytes: some Collection<UInt8>,
        durable: Bool = true
    ) throws(ArchiveStorageError) {
        let temporary = try writeTemporary(besidePath: path, bytes: bytes, durable: durable)
        do throws(ArchiveStorageError) {
            try rename(temporary, to: path)
        } catch {
            _ = unlink(temporary)
            throw error
        }
        if durable { try syncDirectory(ofPath: path) }
    }

    /// Writes `bytes` to a new temporary file in the directory of `path` and returns its path;
    /// when `durable`, flushes it first. The caller renames or removes it.
    static func writeTemporary(
        besidePath path: String,
        bytes: some Collection<UInt8>,
        durable: Bool
    ) throws(ArchiveStorageError) -> String {
        let directory = directoryPath(of: path)
        let name = ".tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        let temporary = directory.isEmpty ? name : directory + "/" + name
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure("open", path: temporary) }
        do throws(ArchiveStorageError) {
            try writeAll(bytes, to: descriptor, path: temporary)
            if durable { try sync(descriptor, path: temporary) }
        } catch {
            _ = close(descriptor)
            _ = unlink(temporary)
            throw error
        }
        guard close(descriptor) == 0 else {
            let error = failure("close", path: temporary)
            _ = unlink(temporary)
            throw error
        }
        return temporary
    }

    /// Renames `source` over `destination` (atomic within one file system).
    static func rename(_ source: String, to destination: String) throws(ArchiveStorageError) {
        #if canImport(Glibc)
        let result = Glibc.rename(source, destination)
        #elseif canImport(Musl)
        let result = Musl.rename(source, destination)
        #elseif canImport(Darwin)
        let result = Darwin.rename(source, destination)
        #elseif canImport(Android)
        let result = Android.rename(source, destination)
        #endif
        guard result == 0 else { throw failure("rename", path: destination) }
    }

    /// Flushes the directory holding `path`, so a rename or unlink in it survives a crash.
    static func syncDirectory(ofPath path: String) throws(ArchiveStorageError) {
        let directory = directoryPath(of: path)
        let target = directory.isEmpty ? "." : directory
        let descriptor = open(target, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("open", path: target) }
        defer { _ = close(descriptor) }
        try sync(descriptor, path: target)
    }

    /// Flushes the file at `path`, written and closed before, to stable storage.
    static func syncFile(atPath path: String) throws(ArchiveStorageError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("open", path: path) }
        defer { _ = close(descriptor) }
        try sync(descriptor, path: path)
    }

    /// Flushes an open file to stable storage (`F_FULLFSYNC` on Apple platforms, `fsync` elsewhere).
    static func sync(_ descriptor: Int32, path: String) throws(ArchiveStorageError) {
        #if canImport(Darwin)
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return }
        #endif
        while fsync(descriptor) != 0 {
            if errno == EINTR { continue }
            // Some file systems cannot flush a directory; that is not a failure of the write.
            if errno == EINVAL || errno == EROFS { return }
            throw failure("fsync", path: path)
        }
    }

    /// Writes every byte of `bytes` to `descriptor`, retrying short writes.
    static func writeAll(
        _ bytes: some Collection<UInt8>,
        to descriptor: Int32,
        path: String
    ) throws(ArchiveStorageError) {
        let written: Int32? = bytes.withContiguousStorageIfAvailable { buffer in
            writeBuffer(UnsafeRawBufferPointer(buffer), to: descriptor)
        }
        let status = written ?? Array(bytes).withUnsafeBytes { writeBuffer($0, to: descriptor) }
        guard status == 0 else {
            throw ArchiveStorageError(.fileSystem, path: path, underlying: SystemError(code: status, call: "write"))
        }
    }

    /// The directory part of `path`, without a trailing slash; empty for a bare file name.
    static func directoryPath(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// An error for the current `errno`, of the code ``code(forSystemError:hasDataProtection:)``
    /// gives.
    static func failure(_ call: String, path: String) -> ArchiveStorageError {
        let code = errno
        return ArchiveStorageError(
            Self.code(forSystemError: code, hasDataProtection: ArchiveFileProtection.isEnforced),
            path: path,
            underlying: SystemError(code: code, call: call)
        )
    }

    /// The code of a failed system call's error: ``ArchiveStorageError/Code/readOnly`` for
    /// `EROFS`; ``ArchiveStorageError/Code/protectedDataUnavailable`` for `EPERM` where the
    /// platform has data protection (the error a protected file gives while the device is locked);
    /// otherwise ``ArchiveStorageError/Code/fileSystem``.
    static func code(forSystemError code: Int32, hasDataProtection: Bool) -> ArchiveStorageError.Code {
        switch code {
        case EROFS: .readOnly
        case EPERM where hasDataProtection: .protectedDataUnavailable
        default: .fileSystem
        }
    }

    /// Writes the buffer fully; returns 0 or the `errno` of the failed write.
    private static func writeBuffer(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32 {
        var offset = 0
        while offset < buffer.count {
            let count = write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += count
        }
        return 0
    }
}

/// `read(2)`, named apart from ``DurableFile/read(atPath:)``.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
