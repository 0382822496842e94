//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keyed-archive open source project
//
// Licensed under Apache License v2.0
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

// An app's models, compiled as a new Xcode app target compiles them (see Package.swift): value
// types archived on and off the main actor and through ArchiveStore's async API, a main-actor
// class and an @Observable class archived on the main actor, a class hierarchy. Exits with status 1
// on a mismatch.

import ArchiveStorage
import Foundation
import KeyedArchiving
import KeyedArchivingMacros
import Observation

@Archivable
struct Note: Equatable {
    var title: String
    var body = ""
    var tags: [String] = []
    var priority: Priority = .low
}

@Archivable
enum Priority: String {
    case low, high
}

@Archivable
final class Folder {
    var name = ""
    var notes: [Note] = []
}

@Archivable
@Observable
final class Settings {
    var fontSize = 14
}

/// Encodes and decodes off the main actor: value types' conformances must allow it.
nonisolated func roundTripOffTheMainActor(_ note: Note) throws -> Note {
    try KeyedArchiveDecoder().decode(Note.self, from: KeyedArchiveEncoder().encode(note))
}

func check(_ condition: Bool, _ what: String) {
    guard condition else {
        print("mismatch: \(what)")
        exit(1)
    }
    print("ok: \(what)")
}

let note = Note(title: "Hello", tags: ["a"], priority: .high)
check(
    try KeyedArchiveDecoder().decode(Note.self, from: KeyedArchiveEncoder().encode(note)) == note,
    "a struct on the main actor"
)
let detached = try await Task.detached { try roundTripOffTheMainActor(note) }.value
check(detached == note, "a struct off the main actor")

let folder = Folder()
folder.name = "Inbox"
folder.notes = [note]
let folderCopy = try KeyedArchiveDecoder().decode(Folder.self, from: KeyedArchiveEncoder().encode(folder))
check(folderCopy.name == "Inbox" && folderCopy.notes == [note], "a main-actor class on the main actor")

let settings = Settings()
settings.fontSize = 17
let settingsCopy = try KeyedArchiveDecoder().decode(Settings.self, from: KeyedArchiveEncoder().encode(settings))
check(settingsCopy.fontSize == 17, "an @Observable class on the main actor")

/// Saves and loads through ArchiveStore's async API, which runs the work off the main actor.
func checkStore() async throws {
    let directory = NSTemporaryDirectory() + "AppTarget-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let store = try ArchiveStore<Note>(name: "notes", in: .path(directory))
    try await store.save(note, forKey: "first")
    let loaded: Note? = try await store.load(forKey: "first")
    check(loaded == note, "ArchiveStore's async API")
}

try await checkStore()

/// A value holding a main-actor object: declared `@MainActor`, it is archived on the main actor.
@MainActor
@Archivable
struct Shelf {
    var label = ""
    var folder = Folder()
}

let shelf = Shelf(label: "Work", folder: folder)
let shelfCopy = try KeyedArchiveDecoder().decode(Shelf.self, from: KeyedArchiveEncoder().encode(shelf))
check(shelfCopy.label == "Work" && shelfCopy.folder.notes == [note], "a @MainActor struct holding a main-actor class")

/// A wrapper of the app's own: main-actor isolated, as every type of the module is.
@propertyWrapper
struct Clamped: Codable, Equatable {
    var value: Int
    var wrappedValue: Int {
        get { self.value }
        set { self.value = min(max(newValue, 0), 10) }
    }
    init(wrappedValue: Int) { self.value = min(max(wrappedValue, 0), 10) }
}

/// A value with a wrapped property (whose accessors are the wrapper's, the main actor's) and an
/// `#if` block of unarchived members: archived on the main actor.
@Archivable
struct Speaker: Equatable {
    @Clamped var volume = 5
    #if DEBUG
    static let label = "debug"
    #endif
}

/// ``Speaker``'s twin, with synthesized `Codable` (main-actor isolated, as the wrapper's is).
struct SpeakerTwin: Codable, Equatable {
    @Clamped var volume = 5
}

var speaker = Speaker()
speaker.volume = 8
let speakerCopy = try KeyedArchiveDecoder().decode(Speaker.self, from: KeyedArchiveEncoder().encode(speaker))
check(speakerCopy == speaker, "a struct with a property wrapper and an #if block")
var speakerTwin = SpeakerTwin()
speakerTwin.volume = 8
var twinEncoder = KeyedArchiveEncoder()
twinEncoder.setClassName("Speaker", for: SpeakerTwin.self)
for mode in [DirectArchiving.enabled, .disabled] {
    var encoder = KeyedArchiveEncoder()
    encoder.directArchiving = mode
    check(
        try encoder.encode(speaker) == twinEncoder.encode(speakerTwin),
        "a main-actor Codable wrapper archived as synthesized Codable archives it (\(mode))"
    )
}

/// A wrapper of the app's own that is not `Codable`.
@propertyWrapper
struct Trimmed: Equatable {
    var value = ""
    var wrappedValue: String {
        get { self.value }
        set { self.value = newValue.trimmingCharacters(in: .whitespaces) }
    }
    init() {}
}

/// A wrapped property marked `@ArchiveUnwrapped`: archived as the plain value its twin stores, and
/// assigned through the wrapper (clamped) when decoded.
@Archivable
struct Dimmer: Equatable {
    @ArchiveUnwrapped @Clamped var level = 5
}

/// ``Dimmer``'s twin, without the wrapper.
struct DimmerTwin: Codable, Equatable {
    var level = 5
}

var dimmer = Dimmer()
dimmer.level = 7
var dimmerTwinEncoder = KeyedArchiveEncoder()
dimmerTwinEncoder.setClassName("Dimmer", for: DimmerTwin.self)
check(
    try KeyedArchiveEncoder().encode(dimmer) == dimmerTwinEncoder.encode(DimmerTwin(level: 7)),
    "an @ArchiveUnwrapped property archived as its value"
)
check(
    try KeyedArchiveDecoder().decode(Dimmer.self, from: dimmerTwinEncoder.encode(DimmerTwin(level: 12))).level == 10,
    "an @ArchiveUnwrapped property decoded through its wrapper"
)

/// Wrappers that are not `Codable`, with and without `init(wrappedValue:)`, and one around an
/// optional: their wrapped values are archived.
@Archivable
struct Labels: Equatable {
    @Trimmed var title: String
    @Clamped var level = 2
    @Boxed var note: String? = nil
}

/// A wrapper around any value, `Codable` where its value is.
@propertyWrapper
struct Boxed<Value: Equatable>: Equatable {
    var wrappedValue: Value
}

extension Boxed: Codable where Value: Codable {}

var labels = Labels()
labels.title = " Work "
labels.note = "n"
let labelsCopy = try KeyedArchiveDecoder().decode(Labels.self, from: KeyedArchiveEncoder().encode(labels))
check(labelsCopy == labels && labelsCopy.title == "Work", "wrappers that are not Codable, and around an optional")

/// Stored properties inside `#if` blocks: archived where their condition holds.
@Archivable
struct Platformed: Equatable {
    var name = "a"
    #if canImport(Foundation)
    var visits = 2
    #else
    var visits = 0
    #endif
    #if os(Windows)
    var drive = "C:"
    #endif
}

let platformed = Platformed(name: "b", visits: 3)
let platformedCopy = try KeyedArchiveDecoder().decode(
    Platformed.self,
    from: KeyedArchiveEncoder().encode(platformed)
)
check(platformedCopy == platformed, "a struct with stored properties inside #if blocks")

/// A class hierarchy, main-actor isolated as the module's classes are: a root class that may be
/// subclassed, its subclass, a final subclass of that, and a subclass of `NSObject`. A subclass of
/// another class declares its `init()`: the macro cannot know whether its superclass has one.
@ArchivableClass
class Animal {
    var name = ""
}

@ArchivableClass
class Dog: Animal {
    var breed = "mixed"

    override init() {
        super.init()
    }
}

@Archivable
final class Puppy: Dog {
    var weeks = 8

    override init() {
        super.init()
    }
}

@ArchivableClass
class Vet: NSObject {
    var clinic = ""
}

let puppy = Puppy()
puppy.name = "Rex"
puppy.weeks = 9
let animals: [Animal] = [puppy, Dog()]
let puppyCopy = try KeyedArchiveDecoder().decode(Puppy.self, from: KeyedArchiveEncoder().encode(puppy))
check(puppyCopy.name == "Rex" && puppyCopy.breed == "mixed" && puppyCopy.weeks == 9, "a subclass of subclasses")
let animalsCopy = try KeyedArchiveDecoder().decode([Animal].self, from: KeyedArchiveEncoder().encode(animals))
check(animalsCopy.map(\.name) == ["Rex", ""], "subclasses held as their root class")
let vet = Vet()
vet.clinic = "North"
check(
    try KeyedArchiveDecoder().decode(Vet.self, from: KeyedArchiveEncoder().encode(vet)).clinic == "North",
    "a subclass of NSObject"
)
