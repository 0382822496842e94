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

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the decoder needs to know about an object's class: its name, for messages, and which
/// Foundation shape, if any, its contents have.
internal final class DecodedClassInfo: Sendable {
    /// The Foundation shapes the decoder reads specially.
    enum Kind: UInt8 {
        /// `NSNull`: decodes as `nil`.
        case null
        /// `NSString`, `NSMutableString`: `NS.string` or `NS.bytes`.
        case string
        /// `NSData`, `NSMutableData`: `NS.data`.
        case data
        /// `NSDate`: `NS.time`.
        case date
        /// `NSUUID`: `NS.uuidbytes`.
        case uuid
        /// `NSURL`: `NS.base` and `NS.relative`.
        case url
        /// `NSArray`, `NSMutableArray`: `NS.objects`.
        case array
        /// `NSSet`, `NSMutableSet`: `NS.objects`.
        case set
        /// `NSCountedSet`: `NS.objects`, or `NS.count` and `NS.object0`, `NS.object1`, ….
        case countedSet
        /// `NSOrderedSet`, `NSMutableOrderedSet`: `NS.object.0`, `NS.object.1`, ….
        case orderedSet
        /// `NSDictionary`, `NSMutableDictionary`: `NS.keys` and `NS.objects`.
        case dictionary
        /// Any other class: the object's own keys are its contents.
        case other
    }

    /// The class name.
    let name: String
    /// The class chain, most specific first, as `$classes` has it.
    let classes: [String]
    /// The shape of the class's objects.
    let kind: Kind

    /// Classifies a class by its name, then by its superclasses, most specific first.
    init(_ archivedClass: ArchivedClass) {
        self.name = archivedClass.name
        self.classes = archivedClass.classes
        if let kind = Self.kind(ofClassNamed: archivedClass.name) {
            self.kind = kind
            return
        }
        for name in archivedClass.classes {
            if let kind = Self.kind(ofClassNamed: name) {
                self.kind = kind
                return
            }
        }
        self.kind = .other
    }

    /// The shape of a Foundation class by its own name, or `nil` for any other class.
    static func kind(ofClassNamed name: String) -> Kind? {
        switch name {
        case "NSNull": return .null
        case "NSString", "NSMutableString": return .string
        case "NSData", "NSMutableData": return .data
        case "NSDate": return .date
        case "NSUUID": return .uuid
        case "NSURL": return .url
        case "NSArray", "NSMutableArray": return .array
        case "NSSet", "NSMutableSet": return .set
        case "NSCountedSet": return .countedSet
        case "NSOrderedSet", "NSMutableOrderedSet": return .orderedSet
        case "NSDictionary", "NSMutableDictionary": return .dictionary
        default: return nil
        }
    }
}

extension DecodedClassInfo {
    /// Classes met before in this process, direct-mapped by the hash of their names' bytes: an
    /// archive of one value names the same few classes as the last one, and reading a class
    /// dictionary into strings and classifying it costs more than the rest of a small value.
    private static let knownClasses = Locked<[DecodedClassInfo?]>(
        [DecodedClassInfo?](repeating: nil, count: knownCount)
    )
    private static var knownCount: Int { 64 }

    /// The class whose class dictionary is the object at `index`, if it is one met before with the
    /// same name and chain, in the common shape: `$classname` and `$classes`, and perhaps
    /// `$classhints`, each once, every name a string. Anything else is for the caller to read.
    static func known(at index: Int, in reader: InPlaceReader) -> DecodedClassInfo? {
        guard case .dictionary(let dictionary)? = try? reader.value(at: index),
            dictionary.count == 2 || dictionary.count == 3,
            let namePosition = reader.position(ofKey: ArchiveFormatKey.className, in: dictionary),
            let chainPosition = reader.position(ofKey: ArchiveFormatKey.classes, in: dictionary),
            dictionary.count == 2 || reader.position(ofKey: ArchiveFormatKey.classHints, in: dictionary) != nil,
            case let nameIndex = reader.value(of: dictionary, at: namePosition),
            let hash = reader.asciiStringHash(nameIndex),
            let info = Self.knownClasses.withLock({ $0[Self.slot(hash)] }),
            info.isNamed(by: nameIndex, in: reader),
            case .array(let chain)? = try? reader.value(at: reader.value(of: dictionary, at: chainPosition)),
            chain.count == info.classes.count
        else {
            return nil
        }
        for (position, name) in info.classes.enumerated() {
            guard Self.isString(reader.element(of: chain, at: position), name, in: reader) else { return nil }
        }
        return info
    }

    /// Keeps `info` for ``known(at:in:)``.
    static func remember(_ info: DecodedClassInfo) {
        var name = info.name
        let slot = Self.slot(name.withUTF8(InPlaceReader.hash))
        Self.knownClasses.withLock { $0[slot] = info }
    }

    private static func slot(_ hash: UInt64) -> Int {
        Int(truncatingIfNeeded: hash >> 32) & (Self.knownCount - 1)
    }

    private func isNamed(by index: Int, in reader: InPlaceReader) -> Bool {
        Self.isString(index, self.name, in: reader)
    }

    private static func isString(_ index: Int, _ string: String, in reader: InPlaceReader) -> Bool {
        var string = string
        return string.withUTF8 { reader.isString(index, equalTo: $0) }
    }

    /// Whether the class is one of `names`, or a subclass of one: its name or a name in its chain.
    func matches(_ names: Set<String>) -> Bool {
        names.contains(self.name) || self.classes.contains { names.contains($0) }
    }
}

extension ArchivedClass {
    /// Whether this class or one of its superclasses has the Foundation shape `kind`.
    func inherits(_ kind: DecodedClassInfo.Kind) -> Bool {
        DecodedClassInfo.kind(ofClassNamed: self.name) == kind
            || self.classes.contains { DecodedClassInfo.kind(ofClassNamed: $0) == kind }
    }
}

extension UUID {
    /// The UUID stored in an `NSUUID`'s `NS.uuidbytes`, or `nil` unless there are exactly 16 bytes.
    init?(archivedBytes data: Data) {
        guard let uuid = data.withUnsafeBytes({ UUID(archivedBytes: $0) }) else { return nil }
        self = uuid
    }

    /// The UUID stored in an `NSUUID`'s `NS.uuidbytes`, or `nil` unless there are exactly 16 bytes.
    init?(archivedBytes bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 16, let base = bytes.baseAddress else { return nil }
        self.init(uuid: base.loadUnaligned(as: uuid_t.self))
    }
}
