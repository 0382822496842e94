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
import KeyedArchiving
import PropertyLists

// A small driver for profiling the coders on the benchmark's cats (`CatModel.swift`,
// `CodableFloor.swift` and `ReleaseFreedMemory.swift` are the benchmark's own files, linked here,
// so that they compile in one module as they do in `CoderBenchmarks`). It is not a benchmark: it runs one coder a given number of
// times, for `valgrind`/`perf` (run it with 1 and with 3 rounds and difference the counts), or
// alternates two coders in one process, which a noisy host disturbs alike.
//
//   coder-profile run <coder> <cats> <rounds>
//   coder-profile pairs <encode|decode> <cats> <rounds>
//   coder-profile scaling <encode|decode> <rounds>
//
// CODER_PROFILE_SAVE=<path> writes the archive that decode workloads read (the first value's with
// `one-`) there, to inspect with `karchive info`. CODER_PROFILE_TRIM=1 gives the setup's freed memory back to the system before `run` measures, as
// the benchmark's decoders do; CODER_PROFILE_TIMES=1 prints every round's time.
//
// Coders: direct-encode, direct-decode (`@Archivable`'s direct path), codable-encode,
// codable-decode (the same type through its generated `Codable` members), floor-encode,
// floor-decode (`CodableFloor` on the same type); each on the benchmark's cats, or with an `app-`
// prefix (`app-direct-encode`) on the app-shaped model of `AppModel.swift`. With a `one-` prefix
// (`one-direct-encode`, `one-app-direct-decode`), each value is an archive of its own. With a
// `plist-` prefix (`plist-tree`, `plist-walk`, `plist-binary`, `plist-xml`, `plist-write`,
// `plist-app-tree`), the binary property list readers and writers on the archive of the cats:
// building the tree, walking every object with the lazy reader, transcoding to binary and to XML,
// and writing the tree. With a `pet-` prefix, on a final `@Archivable` subclass of an
// `@ArchivableClass` root (`HierarchyModel.swift`); with `flatpet-`, on a final class with the same
// fields and no superclass. With `wrapped-`, on a struct with two `Codable` property wrappers
// (`WrappedModel.swift`); with `unwrapped-`, on one with the same fields unwrapped.

/// What a command line asked for, or the usage.
enum Command {
    case run(coder: String, cats: Int, rounds: Int)
    case pairs(operation: String, cats: Int, rounds: Int)
    case scaling(operation: String, rounds: Int)
    case threads(coder: String, cats: Int, rounds: Int, threads: Int)

    init?(_ arguments: [String]) {
        switch arguments.first {
        case "run" where arguments.count == 4:
            guard let cats = Int(arguments[2]), let rounds = Int(arguments[3]) else { return nil }
            self = .run(coder: arguments[1], cats: cats, rounds: rounds)
        case "pairs" where arguments.count == 4:
            guard let cats = Int(arguments[2]), let rounds = Int(arguments[3]) else { return nil }
            self = .pairs(operation: arguments[1], cats: cats, rounds: rounds)
        case "threads" where arguments.count == 5:
            guard let cats = Int(arguments[2]), let rounds = Int(arguments[3]), let threads = Int(arguments[4]),
                threads > 0
            else { return nil }
            self = .threads(coder: arguments[1], cats: cats, rounds: rounds, threads: threads)
        case "scaling" where arguments.count == 3:
            guard let rounds = Int(arguments[2]) else { return nil }
            self = .scaling(operation: arguments[1], rounds: rounds)
        default:
            return nil
        }
    }
}

/// One coder on one set of cats, ready to run again and again.
struct Workload {
    let name: String
    let body: () throws -> Int

    /// The workload of `coder` on `count` cats; its setup (the cats, the bytes to decode) is done here.
    init?(_ coder: String, cats count: Int) {
        if coder.hasPrefix("plist-") {
            let rest = String(coder.dropFirst(6))
            if rest.hasPrefix("app-") {
                self.init(plist: String(rest.dropFirst(4)), name: coder, values: AppItemGenerator.items(count: count))
            } else {
                self.init(plist: rest, name: coder, values: CatGenerator.cats(count: count).map(ArchivableCat.init))
            }
        } else if coder.hasPrefix("one-") {
            let rest = String(coder.dropFirst(4))
            if rest.hasPrefix("app-") {
                self.init(one: String(rest.dropFirst(4)), name: coder, values: AppItemGenerator.items(count: count))
            } else {
                self.init(one: rest, name: coder, values: CatGenerator.cats(count: count).map(ArchivableCat.init))
            }
        } else if coder.hasPrefix("pet-") {
            self.init(String(coder.dropFirst(4)), name: coder, values: DogGenerator.dogs(count: count))
        } else if coder.hasPrefix("flatpet-") {
            self.init(String(coder.dropFirst(8)), name: coder, values: DogGenerator.flatDogs(count: count))
        } else if coder.hasPrefix("wrapped-") {
            self.init(String(coder.dropFirst(8)), name: coder, values: SpeakerGenerator.wrapped(count: count))
        } else if coder.hasPrefix("unwrapped-") {
            self.init(String(coder.dropFirst(10)), name: coder, values: SpeakerGenerator.unwrapped(count: count))
        } else if coder.hasPrefix("app-") {
            self.init(String(coder.dropFirst(4)), name: coder, values: AppItemGenerator.items(count: count))
        } else {
            self.init(coder, name: coder, values: CatGenerator.cats(count: count).map(ArchivableCat.init))
        }
    }

    /// The workload of a property list reader on the archive of `values`.
    private init?<Value: Codable>(plist reader: String, name: String, values: [Value]) {
        self.name = name
        let bytes = [UInt8](try! KeyedArchiveEncoder().encode(values))
        switch reader {
        case "tree":
            self.body = {
                guard case .dictionary(let top) = try PropertyListValue(parsing: bytes) else { return 0 }
                return top.count
            }
        case "walk":
            self.body = {
                let reader = try BinaryPropertyListReader(bytes: bytes)
                var total = 0
                for index in 0..<reader.objectCount {
                    if case .string(let slice) = try reader.object(at: index) {
                        total &+= try reader.string(slice).utf8.count
                    } else {
                        total &+= 1
                    }
                }
                return total
            }
        case "write":
            let tree = try! PropertyListValue(parsing: bytes)
            self.body = { BinaryPropertyListWriter().write(tree).count }
        case "binary", "xml":
            let isXML = reader == "xml"
            self.body = {
                let reader = try BinaryPropertyListReader(bytes: bytes)
                var total = 0
                if isXML {
                    try reader.writeXML { total &+= $0.count }
                } else {
                    try reader.writeBinary { total &+= $0.count }
                }
                return total
            }
        default:
            return nil
        }
    }

    /// The workload of `coder` on `values` archived one at a time: an archive per value, as a
    /// store's save or a `UserDefaults` helper writes them.
    private init?<Value: Codable & Equatable>(one coder: String, name: String, values: [Value]) {
        self.name = name
        switch coder {
        case "direct-encode", "codable-encode":
            var encoder = KeyedArchiveEncoder()
            if coder == "codable-encode" { encoder.directArchiving = .disabled }
            self.body = {
                var total = 0
                for value in values { total &+= try encoder.encode(value).count }
                return total
            }
        case "direct-decode", "codable-decode":
            let archives = values.map { try! KeyedArchiveEncoder().encode($0) }
            if let path = ProcessInfo.processInfo.environment["CODER_PROFILE_SAVE"], let first = archives.first {
                try! first.write(to: URL(fileURLWithPath: path))
            }
            var decoder = KeyedArchiveDecoder()
            if coder == "codable-decode" { decoder.directArchiving = .disabled }
            guard try! archives.map({ try decoder.decode(Value.self, from: $0) }) == values else { return nil }
            self.body = {
                var total = 0
                for bytes in archives { total &+= try decoder.decode(Value.self, from: bytes) == values[0] ? 1 : 0 }
                return total
            }
        case "floor-encode":
            let encoder = FloorEncoder()
            self.body = {
                var total = 0
                for value in values {
                    try encoder.encode(value)
                    total &+= encoder.tape.count
                }
                return total
            }
        case "floor-decode":
            let tapes = values.map { value -> [FloorToken] in
                let encoder = FloorEncoder()
                try! encoder.encode(value)
                return encoder.tape
            }
            guard try! tapes.map({ try FloorDecoder(tape: $0).decode(Value.self) }) == values else { return nil }
            self.body = {
                var total = 0
                for tape in tapes { total &+= try FloorDecoder(tape: tape).decode(Value.self) == values[0] ? 1 : 0 }
                return total
            }
        default:
            return nil
        }
    }

    /// The workload of `coder` on `cats`, values of either model.
    private init?<Value: Codable & Equatable>(_ coder: String, name: String, values cats: [Value]) {
        self.name = name
        switch coder {
        case "direct-encode":
            let encoder = KeyedArchiveEncoder()
            self.body = { try encoder.encode(cats).count }
        case "codable-encode":
            var encoder = KeyedArchiveEncoder()
            encoder.directArchiving = .disabled
            self.body = { try encoder.encode(cats).count }
        case "direct-decode", "codable-decode":
            let bytes = try! KeyedArchiveEncoder().encode(cats)
            if let path = ProcessInfo.processInfo.environment["CODER_PROFILE_SAVE"] {
                try! bytes.write(to: URL(fileURLWithPath: path))
            }
            var decoder = KeyedArchiveDecoder()
            if coder == "codable-decode" { decoder.directArchiving = .disabled }
            guard try! decoder.decode([Value].self, from: bytes) == cats else { return nil }
            self.body = { try decoder.decode([Value].self, from: bytes).count }
        case "floor-encode":
            let encoder = FloorEncoder()
            self.body = {
                try encoder.encode(cats)
                return encoder.tape.count
            }
        case "floor-decode":
            let encoder = FloorEncoder()
            try! encoder.encode(cats)
            let decoder = FloorDecoder(tape: encoder.tape)
            guard try! decoder.decode([Value].self) == cats else { return nil }
            self.body = { try decoder.decode([Value].self).count }
        default:
            return nil
        }
    }

    /// Runs the workload once and returns the seconds it took.
    func time() throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        blackHole(try self.body())
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}

/// Workloads for threads of their own, one each.
struct SeparateWorkloads: @unchecked Sendable {
    let parts: [Workload]
}

@inline(never)
func blackHole(_ value: Int) {
    if value == -1 { print(value) }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
}

func milliseconds(_ seconds: Double) -> String {
    String(format: "%.3f ms", seconds * 1_000)
}

/// Gives the heap's free pages back to the system, as the benchmark's decoders do after their setup
/// (`CODER_PROFILE_TRIM=1`), so that a run starts from the heap a benchmark's process has.
func trimHeapIfAsked() {
    guard ProcessInfo.processInfo.environment["CODER_PROFILE_TRIM"] != nil else { return }
    releaseFreedMemory()
}

/// Alternates two workloads, `rounds` times each after one warm-up, and prints each one's median and
/// the median of the per-round ratios (first / second).
func alternate(_ first: Workload, _ second: Workload, rounds: Int) throws {
    _ = try first.time()
    _ = try second.time()
    var firstTimes: [Double] = []
    var secondTimes: [Double] = []
    var ratios: [Double] = []
    for _ in 0..<rounds {
        let a = try first.time()
        let b = try second.time()
        firstTimes.append(a)
        secondTimes.append(b)
        ratios.append(a / b)
    }
    print(
        "\(first.name) \(milliseconds(median(firstTimes))) (min \(milliseconds(firstTimes.min() ?? .nan))),",
        "\(second.name) \(milliseconds(median(secondTimes))) (min \(milliseconds(secondTimes.min() ?? .nan))),",
        "ratio median \(String(format: "%.3f", median(ratios))), of minimums",
        String(format: "%.3f", (firstTimes.min() ?? .nan) / (secondTimes.min() ?? .nan))
    )
}

func main() throws {
    guard let command = Command(Array(CommandLine.arguments.dropFirst())) else {
        print(
            """
            usage: coder-profile run <coder> <cats> <rounds>
                   coder-profile pairs <encode|decode> <cats> <rounds>
                   coder-profile scaling <encode|decode> <rounds>
                   coder-profile threads <coder> <cats> <rounds> <threads>
            coders: direct-encode direct-decode codable-encode codable-decode floor-encode floor-decode,
                    each also with an app- prefix (the app-shaped model)
            """
        )
        exit(2)
    }
    switch command {
    case .run(let coder, let cats, let rounds):
        guard let workload = Workload(coder, cats: cats) else {
            print("unknown coder, or its output did not read back: \(coder)")
            exit(2)
        }
        trimHeapIfAsked()
        let times = try (0..<rounds).map { _ in try workload.time() }
        if ProcessInfo.processInfo.environment["CODER_PROFILE_TIMES"] != nil {
            print(times.map { milliseconds($0) }.joined(separator: ", "))
        }
        print("\(coder) \(cats) cats: median \(milliseconds(median(times))) of \(rounds)")
    case .threads(let coder, let cats, let rounds, let threads):
        // The same work on one thread, then split over `threads` at once (each its own copy of the
        // values): with as many cores, the wall time should stay, as the pools keep a session for
        // each thread.
        guard let single = Workload(coder, cats: cats * threads) else {
            print("unknown coder, or its output did not read back: \(coder)")
            exit(2)
        }
        // Each thread runs its own workload (its own coder and values) and nothing else.
        let parts = SeparateWorkloads(parts: (0..<threads).compactMap { _ in Workload(coder, cats: cats) })
        _ = try single.time()
        let singleTimes = try (0..<rounds).map { _ in try single.time() }
        let parallelTimes = (0..<(rounds + 1)).map { _ -> Double in
            let start = DispatchTime.now().uptimeNanoseconds
            DispatchQueue.concurrentPerform(iterations: threads) { index in
                blackHole((try? parts.parts[index].body()) ?? 0)
            }
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }.dropFirst()
        print(
            "\(coder) \(cats * threads) cats: one thread \(milliseconds(median(singleTimes))),",
            "\(threads) threads \(milliseconds(median(Array(parallelTimes)))) (medians of \(rounds))"
        )
    case .pairs(let operation, let cats, let rounds):
        guard let direct = Workload("direct-\(operation)", cats: cats),
            let floor = Workload("floor-\(operation)", cats: cats)
        else {
            print("unknown operation: \(operation)")
            exit(2)
        }
        try alternate(direct, floor, rounds: rounds)
    case .scaling(let operation, let rounds):
        // Per record, 100k cats against 1k: 100 runs of 1k alternate with one of 100k.
        guard let small = Workload("direct-\(operation)", cats: 1_000),
            let large = Workload("direct-\(operation)", cats: 100_000)
        else {
            print("unknown operation: \(operation)")
            exit(2)
        }
        _ = try large.time()
        var ratios: [Double] = []
        for _ in 0..<rounds {
            let smallTimes = try (0..<100).map { _ in try small.time() }
            let largeTime = try large.time()
            ratios.append(largeTime / (100 * median(smallTimes)))
        }
        print("100k per record / 1k per record: median \(String(format: "%.3f", median(ratios))) of \(rounds)")
    }
}

try main()
