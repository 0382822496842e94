// swift-tools-version: 6.2
// A target compiled as a new Xcode 26 app target compiles its code: Swift 6, default main-actor
// isolation, and the "approachable concurrency" upcoming features (isolated conformances inferred,
// nonisolated async functions running on the caller's actor). `.ci/run` builds and runs it; the
// package itself keeps supporting Swift 6.1 and plain Swift 6 mode, which its own tests use.
import PackageDescription

let package = Package(
    name: "AppTarget",
    dependencies: [.package(name: "swift-keyed-archive", path: "../..")],
    targets: [
        .executableTarget(
            name: "AppModels",
            dependencies: [
                .product(name: "KeyedArchiving", package: "swift-keyed-archive"),
                .product(name: "KeyedArchivingMacros", package: "swift-keyed-archive"),
                .product(name: "ArchiveStorage", package: "swift-keyed-archive"),
            ],
            swiftSettings: [
                .defaultIsolation(MainActor.self),
                .enableUpcomingFeature("InferIsolatedConformances"),
                .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
            ]
        )
    ]
)
