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
/// unknown fields included) and decode back to an equal value. The generated direct conformances
/// and the generated `Codable` ones must agree: the same value and archive written back, or the
/// same error, and the same fallbacks reported.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: start, count: count))
    let direct = decodeBothWays(ArchivableFuzzModel.self, from: bytes)
    if case .success(let model) = direct {
        let again: ArchivableFuzzModel
        do {
            again = try decoder(.enabled).decode(ArchivableFuzzModel.self, from: KeyedArchiveEncoder().encode(model))
        } catch {
            fuzzFailure("a decoded model does not round-trip: \(error)")
        }
        // A fallback or an unknown case is written back as the value it became.
        if again != model { fuzzFailure("a decoded model round-trips to another value") }
    }
    _ = decodeBothWays([ArchivableFuzzModelV1].self, from: bytes)
    _ = try? decoder(.enabled).decode([String: Event].self, from: bytes)
    let json = JSONDecoder()
    json.userInfo[.archiveFallbackRecorder] = ArchiveFallbackRecorder()
    _ = try? json.decode(ArchivableFuzzModel.self, from: Data(bytes))
    return 0
}

/// A decoder on one path, with the fuzz limits and a fallback recorder.
private func decoder(
    _ mode: DirectArchiving,
    recorder: ArchiveFallbackRecorder = ArchiveFallbackRecorder()
) -> KeyedArchiveDecoder {
    var decoder = KeyedArchiveDecoder()
    decoder.limits = fuzzLimits
    decoder.directArchiving = mode
    decoder.userInfo[.archiveFallbackRecorder] = recorder
    return decoder
}

/// Decodes `bytes` on both paths and fails the run when they disagree; returns the direct path's
/// result.
private func decodeBothWays<T: Codable & Equatable>(_ type: T.Type, from bytes: [UInt8]) -> Result<T, any Error> {
    let recorders = [ArchiveFallbackRecorder(), ArchiveFallbackRecorder()]
    let results = zip([DirectArchiving.enabled, .disabled], recorders).map { mode, recorder in
        Result { try decoder(mode, recorder: recorder).decode(type, from: bytes) }
    }
    switch (results[0], results[1]) {
    case (.success(let direct), .success(let codable)):
        // Kept fields take no part in `==`: the archives written back compare them too.
        let written = [direct, codable].map { try? KeyedArchiveEncoder().encode($0) }
        if direct != codable || written[0] != written[1] {
            fuzzFailure("the paths decode different values of \(type)")
        }
    case (.failure(let direct), .failure(let codable)):
        if summary(of: direct) != summary(of: codable) {
            fuzzFailure("the paths fail differently: \(summary(of: direct)) against \(summary(of: codable))")
        }
    case (.success, .failure(let error)):
        fuzzFailure("only the direct path decodes \(type); the Codable path fails: \(summary(of: error))")
    case (.failure(let error), .success):
        fuzzFailure("only the Codable path decodes \(type); the direct path fails: \(summary(of: error))")
    }
    let reports = recorders.map { $0.fallbacks.map { "\($0) \($0.codingPath)" } }
    if reports[0] != reports[1] {
        fuzzFailure("the paths report different fallbacks: \(reports[0]) against \(reports[1])")
    }
    return results[0]
}

/// An error as what both paths must agree on: the case, the coding path's keys, the description and
/// the underlying error's code (coding keys' types differ between the paths).
private func summary(of error: any Error) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    func describe(_ context: DecodingError.Context) -> String {
        let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
        let code = (context.underlyingError as? KeyedArchiveError).map { " code \($0.code)" } ?? ""
        return "at \(path): \(context.debugDescription)\(code)"
    }
    switch error {
    case .keyNotFound(let key, let context): return "keyNotFound \(key.stringValue) " + describe(context)
    case .typeMismatch(let type, let context): return "typeMismatch \(type) " + describe(context)
    case .valueNotFound(let type, let context): return "valueNotFound \(type) " + describe(context)
    case .dataCorrupted(let context): return "dataCorrupted " + describe(context)
    @unknown default: return "\(error)"
    }
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
