// swift-tools-version: 6.0
import PackageDescription

/// libFuzzer targets for PhotoMetadata, one per container family. Not part of the root package so that CI's
/// default build and test run never compile them. Build and run with `Fuzz/run-all.sh SECONDS`.
let containers = ["JPEG", "PNG", "GIF", "WebP", "TIFF", "ISOBMFF"]

let package = Package(
  name: "PhotoMetadataFuzz",
  dependencies: [.package(name: "PhotoIntake", path: "..")],
  targets: [
    .target(
      name: "FuzzSupport", dependencies: [.product(name: "PhotoMetadata", package: "PhotoIntake")])
  ]
    + containers.map { name in
      .executableTarget(name: "Fuzz\(name)", dependencies: ["FuzzSupport"], path: "Sources/Fuzz\(name)")
    },
  swiftLanguageModes: [.v6]
)
