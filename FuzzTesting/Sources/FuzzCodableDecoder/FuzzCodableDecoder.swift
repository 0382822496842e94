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
import FuzzCommon
import KeyedArchiving
import PropertyLists

/// Decodes the input as a keyed archive of ``FuzzModel`` (and of a few plainer types). Errors are
/// expected; crashes are not.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    var decoder = KeyedArchiveDecoder()
    decoder.limits = fuzzLimits
    _ = try? decoder.decode(FuzzModel.self, from: bytes)
    _ = try? decoder.decode([FuzzModel.Node].self, from: bytes)
    _ = try? decoder.decode([String: FuzzModel.Shape].self, from: bytes)
    return 0
}

/// With `FUZZ_MAKE_SEEDS=DIR` in the environment, writes archives of ``FuzzModel/samples`` (binary
/// and XML) into `DIR` and exits instead of fuzzing.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    guard let directory = ProcessInfo.processInfo.environment["FUZZ_MAKE_SEEDS"] else { return 0 }
    do {
        try SeedWriter.writeArchives(of: FuzzModel.samples, prefix: "model", into: directory)
    } catch {
        print("error: \(error)")
        exit(1)
    }
    exit(0)
}

@main
enum FuzzCodableDecoderMain {
    static func main() {
        exit(runLibFuzzer { data, size in fuzz(UnsafeRawPointer(data) ?? emptyInput, size) })
    }
}
