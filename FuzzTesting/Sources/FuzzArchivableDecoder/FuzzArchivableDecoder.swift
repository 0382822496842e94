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

/// Decodes the input as a keyed archive of ``ArchivableFuzzModel`` (and of its older versions), and
/// as JSON. Errors are expected; crashes are not. A value that decodes must encode again (kept
/// unknown fields included) and decode back to an equal value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    let recorder = ArchiveFallbackRecorder()
    var decoder = KeyedArchiveDecoder()
    decoder.limits = fuzzLimits
    decoder.userInfo[.archiveFallbackRecorder] = recorder
    if let model = try? decoder.decode(ArchivableFuzzModel.self, from: bytes) {
        let again: ArchivableFuzzModel
        do {
            again = try decoder.decode(ArchivableFuzzModel.self, from: KeyedArchiveEncoder().encode(model))
        } catch {
            fuzzFailure("a decoded model does not round-trip: \(error)")
        }
        // A fallback or an unknown case is written back as the value it became.
        if again != model { fuzzFailure("a decoded model round-trips to another value") }
    }
    _ = try? decoder.decode([ArchivableFuzzModelV1].self, from: bytes)
    _ = try? decoder.decode([String: Event].self, from: bytes)
    let json = JSONDecoder()
    json.userInfo[.archiveFallbackRecorder] = recorder
    _ = try? json.decode(ArchivableFuzzModel.self, from: Data(bytes))
    return 0
}

/// With `FUZZ_MAKE_SEEDS=DIR` in the environment, writes archives of
/// ``ArchivableFuzzModel/samples`` (binary and XML) and JSON into `DIR` and exits instead of fuzzing.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    guard let directory = ProcessInfo.processInfo.environment["FUZZ_MAKE_SEEDS"] else { return 0 }
    do {
        try SeedWriter.writeArchives(of: ArchivableFuzzModel.samples, prefix: "archivable", into: directory)
        for (index, sample) in ArchivableFuzzModel.samples.enumerated() {
            try SeedWriter.write(JSONEncoder().encode(sample), named: "archivable-\(index).json", into: directory)
        }
        // Older versions, which decoding migrates (in XML, as the committed seeds are).
        var encoder = KeyedArchiveEncoder()
        encoder.outputFormat = .xml
        let v1 = try encoder.encode(ArchivableFuzzModelV1(title: "Old", count: 2))
        try SeedWriter.write(v1, named: "archivable-v1.archive", into: directory)
        let v2 = try encoder.encode(ArchivableFuzzModelV2(name: "Mid", count: 1, labels: "x y"))
        try SeedWriter.write(v2, named: "archivable-v2.archive", into: directory)
    } catch {
        print("error: \(error)")
        exit(1)
    }
    exit(0)
}

@main
enum FuzzArchivableDecoderMain {
    static func main() {
        exit(runLibFuzzer { data, size in fuzz(UnsafeRawPointer(data) ?? emptyInput, size) })
    }
}
