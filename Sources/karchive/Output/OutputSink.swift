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

/// A destination for bytes the tool writes: standard output, standard error, or a buffer in tests.
protocol OutputSink: Sendable {
    /// Writes `bytes` in full.
    /// - Throws: ``FileError`` if the destination refuses them.
    func write(_ bytes: [UInt8]) throws(FileError)
}

/// Writes to an open file descriptor, unbuffered.
struct FileDescriptorSink: OutputSink {
    /// The descriptor to write to.
    var descriptor: Int32
    /// The name that errors report, such as `<stdout>`.
    var name: String

    func write(_ bytes: [UInt8]) throws(FileError) {
        try FileIO.writeAll(bytes, to: self.descriptor, name: self.name)
    }
}

/// Collects everything written to it, for tests.
final class CapturingSink: OutputSink, @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [UInt8] = []

    /// Creates an empty sink.
    init() {}

    func write(_ bytes: [UInt8]) {
        self.lock.withLock { self.storage.append(contentsOf: bytes) }
    }

    /// Everything written so far.
    var bytes: [UInt8] {
        self.lock.withLock { self.storage }
    }

    /// Everything written so far, decoded as UTF-8.
    var text: String {
        String(decoding: self.bytes, as: UTF8.self)
    }
}
