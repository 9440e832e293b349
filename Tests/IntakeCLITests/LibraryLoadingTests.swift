#if canImport(CVips)
  import Foundation
  import PhotoIntakeTesting
  import Testing

  /// libvips and libheif are opened at the first thumbnail, not linked (CVips's `imaging_loader.h`): checked on
  /// child `intake` processes, since a library, once loaded, stays in a process.
  struct LibraryLoadingTests {
    struct Child {
      var status: Int32
      var stderr: String
    }

    /// Runs `intake` as a child with `environment` added to ours; stdout is discarded.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Child {
      let process = ChildProcess()
      process.executableURL = URL(fileURLWithPath: intakeExecutable())
      process.arguments = arguments
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
      let err = Pipe()
      process.standardOutput = FileHandle.nullDevice
      process.standardError = err
      try process.run()
      let data = err.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      return Child(status: process.terminationStatus, stderr: String(decoding: data, as: UTF8.self))
    }

    /// The shared libraries a child opened, by name, from the dynamic loader's own trace (glibc's
    /// `LD_DEBUG=files` writes `file=NAME [0];  needed by …` or `dynamically loaded by …` for each).
    static func librariesOpened(_ arguments: [String]) throws -> Set<String> {
      let child = try run(arguments, environment: ["LD_DEBUG": "files"])
      #expect(child.status == 0, "\(arguments): \(child.stderr.suffix(500))")
      var names: Set<String> = []
      for line in child.stderr.split(separator: "\n") {
        guard let start = line.range(of: "file=")?.upperBound else { continue }
        let name = line[start...].prefix { $0 != " " && $0 != "\t" && $0 != ";" }
        if let stem = name.split(separator: ".").first { names.insert(String(stem)) }
      }
      return names
    }

    @Test(arguments: [
      ["--version"],
      ["metadata", "--json", ImagingFixture.path("orientation-6.jpg"), ImagingFixture.path("scene.heic")],
    ])
    func commandsWithoutThumbnailsLoadNeither(_ arguments: [String]) throws {
      let opened = try Self.librariesOpened(arguments)
      #expect(opened.contains("libc"), "the trace was read")
      #expect(!opened.contains("libvips"))
      #expect(!opened.contains("libheif"))
      #expect(!opened.contains("libavformat"))
    }

    /// A movie's poster loads the FFmpeg libraries and TurboJPEG (to encode), neither libvips nor libheif.
    @Test func aMoviePosterLoadsFFmpeg() throws {
      let scratch = TemporaryDirectory()
      let opened = try Self.librariesOpened([
        "thumbnail", MovieFixture.path("rotation-90.mov"), "--size", "40", "--out", scratch.at("t.jpg"),
      ])
      #expect(
        opened.isSuperset(of: ["libavformat", "libavcodec", "libswscale", "libavutil", "libturbojpeg"]))
      #expect(!opened.contains("libvips"))
      #expect(!opened.contains("libheif"))
    }

    /// Without FFmpeg, a movie's poster fails with the packages to install; a photo in the same run is made.
    @Test func aMissingFFmpegIsReportedWithThePackagesToInstall() throws {
      let scratch = TemporaryDirectory()
      let child = try Self.run(
        [
          "thumbnail", MovieFixture.path("rotation-90.mov"), ImagingFixture.path("orientation-6.jpg"),
          "--size",
          "40", "--out", scratch.path,
        ],
        environment: ["PHOTOINTAKE_LIBAVFORMAT": scratch.at("missing/libavformat.so")])
      #expect(child.status == 1)
      #expect(
        child.stderr.contains("FFmpeg (libavformat, libavcodec, libswscale) could not be loaded ("),
        "\(child.stderr)")
      #expect(child.stderr.contains("apt-get install libavformat"), "\(child.stderr)")
      #expect(FileManager.default.fileExists(atPath: scratch.at("orientation-6.jpg")), "the JPEG was made")
      #expect(!FileManager.default.fileExists(atPath: scratch.at("rotation-90.jpg")))
    }

    /// A JPEG without a colour profile goes through TurboJPEG alone; one with a profile through libvips.
    @Test func aJPEGThumbnailLoadsTurboJPEGOnly() throws {
      let scratch = TemporaryDirectory()
      let opened = try Self.librariesOpened([
        "thumbnail", ImagingFixture.path("orientation-6.jpg"), "--size", "40", "--out", scratch.at("t.jpg"),
      ])
      #expect(opened.contains("libturbojpeg"))
      #expect(!opened.contains("libvips"))
      #expect(!opened.contains("libheif"))
    }

    @Test func aJPEGWithAColourProfileGoesThroughLibvips() throws {
      let scratch = TemporaryDirectory()
      // `vips icc_transform … srgb` embeds an sRGB profile, which libvips's path converts from.
      let tagged = scratch.at("icc.jpg")
      let vips = ChildProcess()
      vips.executableURL = URL(fileURLWithPath: "/usr/bin/vips")
      vips.arguments = ["icc_transform", ImagingFixture.path("orientation-6.jpg"), tagged, "srgb"]
      try vips.run()
      vips.waitUntilExit()
      #expect(vips.terminationStatus == 0)
      let opened = try Self.librariesOpened([
        "thumbnail", tagged, "--size", "40", "--out", scratch.at("t.jpg"),
      ])
      #expect(opened.contains("libvips"))
    }

    @Test func aHEIFThumbnailLoadsBoth() throws {
      let scratch = TemporaryDirectory()
      let opened = try Self.librariesOpened([
        "thumbnail", ImagingFixture.path("scene.heic"), "--size", "40", "--out", scratch.at("t.jpg"),
      ])
      #expect(opened.contains("libvips"))
      #expect(opened.contains("libheif"))
    }

    /// A library that cannot be opened fails each thumbnail with a sentence naming the package to install; the
    /// rest of the run goes on (libheif missing does not stop a JPEG).
    @Test func aMissingLibraryIsReportedWithThePackageToInstall() throws {
      let scratch = TemporaryDirectory()
      let jpeg = ImagingFixture.path("orientation-6.jpg"), heif = ImagingFixture.path("scene.heic")
      // A GIF needs libvips (a JPEG without a colour profile would go through TurboJPEG alone).
      let noVips = try Self.run(
        ["thumbnail", ImagingFixture.path("scene.gif"), "--size", "40", "--out", scratch.path],
        environment: ["PHOTOINTAKE_LIBVIPS": scratch.at("missing/libvips.so.42")])
      #expect(noVips.status == 1)
      #expect(noVips.stderr.contains("libvips could not be loaded ("), "\(noVips.stderr)")
      #expect(noVips.stderr.contains("apt-get install libvips42"), "\(noVips.stderr)")

      let noHEIF = try Self.run(
        ["thumbnail", heif, jpeg, "--size", "40", "--out", scratch.path],
        environment: ["PHOTOINTAKE_LIBHEIF": scratch.at("missing/libheif.so.1")])
      #expect(noHEIF.status == 1)
      #expect(noHEIF.stderr.contains("libheif could not be loaded ("), "\(noHEIF.stderr)")
      #expect(noHEIF.stderr.contains("apt-get install libheif1"), "\(noHEIF.stderr)")
      #expect(FileManager.default.fileExists(atPath: scratch.at("orientation-6.jpg")), "the JPEG was made")
    }

    /// SQLite and libcrypto are opened at the first connection or hash (CSQLite, CCrypto), not linked: an audit
    /// opens neither, an import both.
    @Test func sqliteAndLibcryptoAreOpenedWhenFirstUsed() throws {
      let scratch = TemporaryDirectory()
      let audited = try Self.librariesOpened(["audit", scratch.path])
      #expect(!audited.contains("libsqlite3") && !audited.contains("libcrypto"), "\(audited)")
      let imported = try Self.librariesOpened([
        "import", "--library", scratch.at("library"), "--no-renditions",
        ImagingFixture.path("orientation-6.jpg"),
      ])
      #expect(imported.contains("libsqlite3") && imported.contains("libcrypto"), "\(imported)")
    }

    /// Without libsqlite3 a library cannot be opened, and the command says why; without libcrypto nothing can
    /// be hashed, and the process stops saying why before it stores anything.
    @Test func aMissingSQLiteOrLibcryptoIsNamed() throws {
      let scratch = TemporaryDirectory()
      let library = scratch.at("library")
      let photo = ImagingFixture.path("orientation-6.jpg")
      let made = try Self.run(["import", "--library", library, "--no-renditions", photo])
      #expect(made.status == 0, "\(made.stderr)")
      let noSQLite = try Self.run(
        ["list", "--library", library],
        environment: ["PHOTOINTAKE_LIBSQLITE3": scratch.at("missing/libsqlite3.so.0")])
      #expect(noSQLite.status != 0)
      #expect(noSQLite.stderr.contains("libsqlite3 could not be loaded"), "\(noSQLite.stderr)")
      let noCrypto = try Self.run(
        ["import", "--library", scratch.at("other"), "--no-renditions", photo],
        environment: ["PHOTOINTAKE_LIBCRYPTO": scratch.at("missing/libcrypto.so.3")])
      #expect(noCrypto.status != 0)
      #expect(
        noCrypto.stderr.contains("SHA-256 is unavailable: libcrypto could not be loaded"),
        "\(noCrypto.stderr)")
    }

    /// A file that opens but is not libvips (here libheif) is refused by its missing functions, not called.
    @Test func aLibraryOfTheWrongKindIsRefused() throws {
      let scratch = TemporaryDirectory()
      let child = try Self.run(
        ["thumbnail", ImagingFixture.path("scene.gif"), "--out", scratch.at("t.jpg")],
        environment: ["PHOTOINTAKE_LIBVIPS": "libheif.so.1"])
      #expect(child.status == 1)
      #expect(child.stderr.contains("libheif.so.1 has no function vips_version"), "\(child.stderr)")
    }
  }
#endif
