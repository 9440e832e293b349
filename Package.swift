// swift-tools-version: 6.1
import PackageDescription

/// System libraries exist as Debian packages on Linux; on Apple platforms the SDK's SQLite3, CryptoKit and
/// ImageIO take their place, so these dependencies apply on Linux only.
let onLinux = TargetDependencyCondition.when(platforms: [Platform.linux])

let package = Package(
  name: "PhotoIntake",
  platforms: [.iOS(.v16), .macOS(.v13)],
  products: [
    .library(name: "PhotoMetadata", targets: ["PhotoMetadata"]),
    .library(name: "PhotoIntake", targets: ["PhotoIntake"]),
    .library(name: "PhotoIntakeTesting", targets: ["PhotoIntakeTesting"]),
    .library(name: "PhotoIntakeUI", targets: ["PhotoIntakeUI"]),
    .library(name: "PhotoIntakeAudit", targets: ["PhotoIntakeAudit"]),
    .executable(name: "intake", targets: ["intake"]),
  ],
  // Crash points, fault injection and the power-loss model exist only in builds that enable this trait
  // (`swift build --traits TestHooks`, as Scripts/test.sh does); apps and a release `intake` never contain
  // them. Each target of this package sees it as the compilation condition `TestHooks`.
  traits: [
    .trait(
      name: "TestHooks",
      description:
        "Compiles in the test hooks: PHOTOINTAKE_CRASH_AT crash points, FaultInjection and the power-loss model."
    )
  ],
  targets: [
    // MARK: C system libraries (Linux)
    // SQLite (libsqlite3-dev) and libcrypto (libssl-dev) are not linked either: CSQLite and CCrypto compile
    // against their headers and open them at the first connection or hash, so a process that needs neither
    // (`intake audit`, `intake metadata`) starts without mapping them and resolving their symbols (1.3 ms).
    .target(
      name: "CSQLite", cSettings: [.define("PHOTOINTAKE_TEST_HOOKS", .when(traits: ["TestHooks"]))]),
    .target(
      name: "CCrypto", cSettings: [.define("PHOTOINTAKE_TEST_HOOKS", .when(traits: ["TestHooks"]))]),
    // libvips and libheif are not linked: CVips opens them at the first thumbnail (45 ms and 20 MB that a process
    // making none does not pay). CVipsHeaders only gives it their headers; its pkg-config name is GLib's, whose
    // include paths libvips's headers need, because libvips's would also link libvips.
    .systemLibrary(
      name: "CVipsHeaders", pkgConfig: "glib-2.0",
      providers: [
        .apt([
          "libvips-dev", "libheif-dev", "libturbojpeg0-dev", "libavformat-dev", "libavcodec-dev",
          "libswscale-dev",
          "libavutil-dev",
        ])
      ]),
    .target(
      name: "CVips", dependencies: [.target(name: "CVipsHeaders", condition: onLinux)],
      // The PHOTOINTAKE_LIB… variables that name another libvips, libheif or FFmpeg file are read only here (and
      // PHOTOINTAKE_LIBSQLITE3 and PHOTOINTAKE_LIBCRYPTO only in CSQLite and CCrypto), in TestHooks builds.
      cSettings: [.define("PHOTOINTAKE_TEST_HOOKS", .when(traits: ["TestHooks"]))]),

    // MARK: Library targets
    .target(name: "PhotoMetadata"),
    .target(
      name: "PhotoIntake",
      dependencies: [
        "PhotoMetadata",
        .target(name: "CSQLite", condition: onLinux),
        .target(name: "CCrypto", condition: onLinux),
        .target(name: "CVips", condition: onLinux),
      ]),
    .target(name: "PhotoIntakeTesting", dependencies: ["PhotoIntake", "PhotoMetadata"]),
    .target(name: "PhotoIntakeUI", dependencies: ["PhotoIntake", "PhotoMetadata"]),
    .target(name: "PhotoIntakeAudit"),

    // MARK: The command-line tool
    .target(
      name: "IntakeCLI",
      dependencies: ["PhotoIntake", "PhotoMetadata", "PhotoIntakeAudit", "PhotoIntakeTesting"]),
    .executableTarget(name: "intake", dependencies: ["IntakeCLI"]),

    // MARK: Tests
    // Test fixtures are read where they lie in the repository (found by #filePath), not bundled.
    .testTarget(
      name: "PhotoMetadataTests", dependencies: ["PhotoMetadata", "PhotoIntakeTesting"],
      exclude: ["Fixtures", "GainMapFixtures", "RawFixtures"]),
    .testTarget(
      name: "PhotoIntakeTests",
      dependencies: ["PhotoIntake", "PhotoMetadata", "PhotoIntakeTesting"], exclude: ["Fixtures"]),
    .testTarget(
      name: "PhotoIntakeTestingTests",
      dependencies: ["PhotoIntakeTesting", "PhotoIntake", "PhotoMetadata"]),
    // The audit's fixtures are Swift sources to read, not to compile.
    .testTarget(
      name: "PhotoIntakeAuditTests", dependencies: ["PhotoIntakeAudit", "PhotoIntakeTesting"],
      exclude: ["Fixtures", "Evaluation"]),
    .testTarget(name: "IntakeCLITests", dependencies: ["IntakeCLI", "PhotoIntake", "PhotoIntakeTesting"]),
  ],
  swiftLanguageModes: [.v6]
)
