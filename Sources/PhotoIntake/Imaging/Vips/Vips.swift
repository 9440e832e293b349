#if canImport(CVips)
  import CVips
  import Foundation

  /// libvips, loaded and started once per process with settings for untrusted input and many small jobs.
  enum Vips {
    /// libvips's largest coordinate (`VIPS_MAX_COORD`): its properties refuse a larger size. Thumbnails and
    /// conversions only ever reduce, so a larger requested size means "as it is", and is clamped to this.
    static let maximumCoordinate = 10_000_000

    /// Loads libvips if needed and starts it, the first time only.
    ///
    /// - Throws: ``ImagingError/libraryUnavailable(library:package:reason:)`` when libvips is not installed or
    ///   not the version this build needs; `decodeFailed` when it does not start.
    static func start() throws(ImagingError) {
      if let failure = startFailure { throw failure }
    }

    /// Loads libvips and starts it the first time it is read (Swift runs a global's initializer once,
    /// thread-safely); nil when libvips is ready.
    ///
    /// libvips is not linked but opened here, at the first thumbnail, so that processes which never make one do
    /// not load it and its ~100 dependencies (see CVips's `imaging_loader.h`). Then:
    /// - `vips_block_untrusted_set`: loaders libvips marks as unfuzzed (matrix, CSV, PPM, Analyze, FITS…) are
    ///   refused, whatever the bytes claim; photos never need them.
    /// - `vips_cache_set_max(0)`: every thumbnail is a one-off; the operation cache would only keep decoded
    ///   images alive.
    /// - `vips_concurrency_set(1)` unless `VIPS_CONCURRENCY` says otherwise: a thumbnail's pipeline is short
    ///   and JPEG decoding is serial, so worker threads per image only add hand-offs. Callers run several
    ///   files at once instead (``RenditionStore`` and `intake thumbnail` do, one per core).
    /// - Warnings of the VIPS log domain are dropped: they repeat per damaged tile, and the failure reaches the
    ///   caller as a typed error anyway.
    private static let startFailure: ImagingError? = {
      if let failure = ImagingError.loading(library: "libvips", package: "libvips42", photointake_vips_load) {
        return failure
      }
      // Without its loadable modules: libvips would otherwise load ImageMagick, Poppler, OpenSlide, JPEG XL and
      // heifload (30 ms and 7 MB per process, and a wide surface for untrusted files), none of which renditions
      // use (HEIF goes to libheif directly). libvips finds modules under $VIPSHOME/lib; an empty prefix hides
      // them. The variable is only set when the host has not set it, and removed again once libvips has read
      // it, so child processes see the environment unchanged. (vips_init itself calls g_setenv on VIPSHOME,
      // so this adds no environment race that libvips does not already have.)
      // Under ProcessEnvironment's lock: a thread copying the environment meanwhile (for a child process, as the
      // tests' `ChildProcess` does) would read the array setenv moved.
      let started = ProcessEnvironment.withLock {
        let hidesModules = getenv("VIPSHOME") == nil
        if hidesModules { setenv("VIPSHOME", "/nonexistent/photointake-vips-prefix", 1) }
        defer { if hidesModules { unsetenv("VIPSHOME") } }
        return photointake_vips_init("photointake") == 0
      }
      guard started else {
        return .decodeFailed(reason: "libvips could not be started")
      }
      photointake_vips_drop_warnings()
      photointake_vips_block_untrusted()
      photointake_vips_cache_set_max(0)
      if ProcessInfo.processInfo.environment["VIPS_CONCURRENCY"] == nil {
        photointake_vips_concurrency_set(1)
      }
      return nil
    }()

    /// Takes libvips's error text (and clears it), without the file's path, which may be personal data.
    static func takeError(hiding path: String? = nil) -> String {
      // A failure inside a worker thread (a tile of a truncated file) leaves no text; say what it means.
      let unknown = "the pixel data is cut short or damaged"
      guard let raw = photointake_vips_error_buffer_copy() else { return unknown }
      defer { photointake_g_free(raw) }
      var text = String(cString: raw)
      if let path, !path.isEmpty { text = text.replacingOccurrences(of: path, with: "the file") }
      let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      let summary = lines.filter { !$0.isEmpty }.prefix(2).joined(separator: "; ")
      return summary.isEmpty ? unknown : String(summary.prefix(300))
    }
  }

  extension ImagingError {
    /// Runs one of CVips's library loaders (`photointake_vips_load`, `photointake_heif_load`).
    ///
    /// - Returns: nil when the library is loaded, else ``libraryUnavailable(library:package:reason:)`` with the
    ///   loader's explanation (dlopen's or dlsym's words, which name the library file, never a user's path).
    static func loading(
      library: String, package: String,
      _ load: (UnsafeMutablePointer<UnsafePointer<CChar>?>) -> photointake_load_status
    ) -> ImagingError? {
      var detail: UnsafePointer<CChar>?
      guard load(&detail) != PHOTOINTAKE_LOAD_OK else { return nil }
      let reason = detail.map { String(cString: $0) } ?? "no reason given"
      return .libraryUnavailable(library: library, package: package, reason: reason)
    }
  }
#endif
