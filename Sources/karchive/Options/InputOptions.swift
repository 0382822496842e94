//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import ArgumentParser
import PropertyLists

/// The input files a command reads.
struct InputOptions: ParsableArguments {
    @Argument(
        help: ArgumentHelp(
            "The keyed archives or property lists to read. Use '-' to read standard input.",
            valueName: "file"
        )
    )
    var files: [String]

    /// The inputs, in command-line order.
    var inputs: [InputFile] { self.files.map(InputFile.init(path:)) }

    /// Reads each input in turn and passes its bytes to `body`, reporting each failure as one
    /// `karchive: FILE: reason` line on standard error and carrying on with the next input.
    ///
    /// - Parameters:
    ///   - limits: The bounds to read with; an input longer than their `maximumInputSize` fails
    ///     before it is read whole.
    ///   - body: Handles one input. Errors it throws are reported against the input, or against
    ///     the file named in a ``FileError``; an `ExitCode` marks a failure it reported itself.
    /// - Throws: `ExitCode.failure` once every input has been handled, if any of them failed.
    func forEachInput(limits: PropertyListLimits, _ body: (InputFile, [UInt8]) throws -> Void) throws(ExitCode) {
        try self.eachInput { input in try body(input, try input.read(limit: limits.maximumInputSize)) }
    }

    /// Reads and parses each input in turn and passes it to `body`, reporting failures as
    /// ``forEachInput(limits:_:)`` does. The bytes read are released once parsed, so a large input is not
    /// held twice while `body` works on it.
    ///
    /// - Parameters:
    ///   - limits: The bounds to read with.
    ///   - body: Handles one parsed input.
    /// - Throws: `ExitCode.failure` once every input has been handled, if any of them failed.
    func forEachPropertyList(limits: PropertyListLimits, _ body: (ParsedInput) throws -> Void) throws(ExitCode) {
        try self.eachInput { input in try body(try ParsedInput(file: input, limits: limits)) }
    }

    private func eachInput(_ body: (InputFile) throws -> Void) throws(ExitCode) {
        var failed = false
        for input in self.inputs {
            do {
                try body(input)
            } catch let error as FileError {
                Console.current.reportError(error.description, subject: error.path)
                failed = true
            } catch let error as ExitCode {
                // The body has reported the failure itself.
                if error != .success { failed = true }
            } catch {
                Console.current.reportError(String(describing: error), subject: input.displayName)
                failed = true
            }
        }
        if failed { throw ExitCode.failure }
    }
}

/// One input: a file path, or `-` for standard input.
struct InputFile: Hashable, Sendable {
    /// The name that messages use for standard input.
    static let standardInputName = "<stdin>"

    /// The path as given on the command line.
    var path: String

    /// Whether this input is standard input.
    var isStandardInput: Bool { self.path == "-" }

    /// The name to show in headers and messages.
    var displayName: String { self.isStandardInput ? Self.standardInputName : self.path }

    /// Reads the whole input, failing without reading it all if it is longer than `limit` bytes.
    /// - Throws: ``FileError`` if the file cannot be opened or read; `PropertyListError` with
    ///   `sizeLimitExceeded` if it is longer than `limit`.
    func read(limit: Int) throws -> [UInt8] {
        let bytes =
            self.isStandardInput
            ? try Console.current.readStandardInput(limit) : try FileIO.readFile(atPath: self.path, limit: limit)
        guard bytes.count <= limit else { throw FileIO.inputTooLarge("\(bytes.count) bytes", limit: limit) }
        return bytes
    }
}

/// An input that parsed as a property list.
struct ParsedInput {
    /// Where it came from.
    var file: InputFile
    /// The property list.
    var value: PropertyListValue
    /// The format it was written in.
    var format: PropertyListFormat

    /// Reads and parses `file` within `limits`; the bytes are not kept.
    /// - Throws: ``FileError`` if it cannot be read, `PropertyListError` if it is not a property list
    ///   or exceeds `limits`.
    init(file: InputFile, limits: PropertyListLimits) throws {
        let bytes = try file.read(limit: limits.maximumInputSize)
        (self.value, self.format) = try PropertyListValue.parse(bytes, limits: limits)
        self.file = file
    }
}
