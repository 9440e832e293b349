#if canImport(CVips)
  import CVips
#endif

/// Settings for a process whose main job is importing (the `intake` tool), not for a library inside an app.
package enum ProcessTuning {
  /// Caps glibc's malloc arenas at two (see CVips's `photointake_limit_malloc_arenas`); nothing elsewhere.
  package static func limitMallocArenas() {
    #if canImport(CVips)
      photointake_limit_malloc_arenas(2)
    #endif
  }
}
