//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import CLibFuzzer

/// Runs libFuzzer on `body` with the process's command line and returns its exit status.
///
/// SwiftPM (tools version 5.5 and later) compiles an executable target's entry point as
/// `<Target>_main` and links it with `--defsym main=<Target>_main`, so libFuzzer's own `main`
/// is never linked into the fuzz targets; each target's `@main` calls this instead.
public func runLibFuzzer(_ body: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    return LLVMFuzzerRunDriver(&argc, &argv, body)
}

/// Stops the process with a message that libFuzzer records as a crash.
public func fuzzFailure(_ message: String) -> Never {
    fatalError("fuzz invariant broken: \(message)")
}

/// A valid pointer for an input of no bytes, should libFuzzer ever pass a null one.
nonisolated(unsafe) public let emptyInput = UnsafeRawPointer(
    UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)
)
