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
    @Argument(help: ArgumentHelp("The property list files to read. Use '-' to read standard input.", valueName: "file"))
    var files: [String]

    /// The inputs, in command-line order.
    var inputs: [InputFile] { self.files.map(InputFile.init(path:)) }

    /// Reads and parses each input in turn and passes it to `body`, reporting each failure as one
    /// `karchive: FILE: reason` line on standard error and carrying on with the next input.
    ///
    /// - Parameter body: Handles one parsed input. Errors it throws are reported against the input,
    ///   or against the file named in a ``FileError``.
    /// - Throws: `ExitCode.failure` once every input has been handled, if any of them failed.
    func forEachPropertyList(_ body: (ParsedInput) throws -> Void) throws(ExitCode) {
        var failed = false
        for input in self.inputs {
            do {
                let bytes = try input.read()
                let (value, format) = try PropertyListValue.parse(bytes)
                try body(ParsedInput(file: input, bytes: bytes, value: value, format: format))
            } catch let error as FileError {
                Console.current.reportError(error.description, subject: error.path)
                failed = true
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

    /// Reads the whole input.
    /// - Throws: ``FileError`` if the file cannot be opened or read.
    func read() throws(FileError) -> [UInt8] {
        if self.isStandardInput {
            return try Console.current.readStandardInput()
        }
        return try FileIO.readFile(atPath: self.path)
    }
}

/// An input that parsed as a property list.
struct ParsedInput {
    /// Where it came from.
    var file: InputFile
    /// Its bytes as read.
    var bytes: [UInt8]
    /// The property list.
    var value: PropertyListValue
    /// The format it was written in.
    var format: PropertyListFormat
}
