//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import PropertyLists

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Android)
import Android
#endif

/// A failed file operation: the path and the operating system's reason, such as
/// `No such file or directory`.
struct FileError: Error, Hashable, CustomStringConvertible {
    /// The path as the user wrote it, or `<stdin>` or `<stdout>`.
    var path: String
    /// The `errno` value.
    var code: Int32

    /// The operating system's description of ``code``.
    var description: String {
        String(cString: strerror(self.code))
    }
}

/// Reading and writing whole files with POSIX calls, so failures carry a plain `errno` message.
enum FileIO {
    /// The file descriptor of standard input.
    static let standardInput: Int32 = 0
    /// The file descriptor of standard output.
    static let standardOutput: Int32 = 1
    /// The file descriptor of standard error.
    static let standardError: Int32 = 2

    /// Reads the whole file at `path`, refusing, before reading it, a regular file longer than
    /// `limit` bytes, and stopping any other file as soon as it passes `limit`.
    /// - Throws: ``FileError`` if the file cannot be opened or read; `PropertyListError` with
    ///   `sizeLimitExceeded` if it is longer than `limit`.
    static func readFile(atPath path: String, limit: Int) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError(path: path, code: errno) }
        defer { _ = close(descriptor) }
        var status = stat()
        var expectedSize = 0
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
            let size = Int(status.st_size)
            if size > limit { throw Self.inputTooLarge("\(size) bytes", limit: limit) }
            expectedSize = size
        }
        return try readAll(from: descriptor, name: path, limit: limit, expectedSize: expectedSize)
    }

    /// Reads from `descriptor` until the end of the file, or until more than `limit` bytes came.
    /// - Parameter expectedSize: The size to reserve room for, if known.
    /// - Throws: ``FileError`` if reading fails; `PropertyListError` with `sizeLimitExceeded` once
    ///   more than `limit` bytes have been read.
    static func readAll(from descriptor: Int32, name: String, limit: Int, expectedSize: Int = 0) throws -> [UInt8] {
        var result: [UInt8] = []
        // One more byte than expected, so that reaching the end takes no reallocation.
        result.reserveCapacity(min(expectedSize, limit) + 1)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileError(path: name, code: errno)
            }
            if count == 0 { return result }
            result.append(contentsOf: chunk[..<count])
            if result.count > limit { throw Self.inputTooLarge("more than \(limit) bytes", limit: limit) }
        }
    }

    /// The error for an input over `--max-input-size`, as the readers word it.
    static func inputTooLarge(_ size: String, limit: Int) -> PropertyListError {
        PropertyListError(.sizeLimitExceeded, reason: "input of \(size) exceeds the limit of \(limit)")
    }

    /// Passes `body` a sink that writes to the file at `path`, closing it after. The file is
    /// created (or truncated) when the first chunk arrives, so a `body` that fails before writing
    /// leaves no file behind.
    static func withNewFile(atPath path: String, _ body: (_ sink: ([UInt8]) throws -> Void) throws -> Void) throws {
        var descriptor: Int32 = -1
        do {
            try body { chunk in
                if descriptor < 0 {
                    descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
                    guard descriptor >= 0 else { throw FileError(path: path, code: errno) }
                }
                try writeAll(chunk, to: descriptor, name: path)
            }
        } catch {
            if descriptor >= 0 { _ = close(descriptor) }
            throw error
        }
        guard descriptor >= 0 else { return }
        guard close(descriptor) == 0 else { throw FileError(path: path, code: errno) }
    }

    static func writeFile(_ bytes: [UInt8], atPath path: String) throws(FileError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw FileError(path: path, code: errno) }
        do {
            try writeAll(bytes, to: descriptor, name: path)
        } catch {
            _ = close(descriptor)
            throw error
        }
        guard close(descriptor) == 0 else { throw FileError(path: path, code: errno) }
    }

    /// Writes all of `bytes` to `descriptor`, retrying short and interrupted writes.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32, name: String) throws(FileError) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress.map { $0 + written }, buffer.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileError(path: name, code: errno)
            }
            written += count
        }
    }
}
