#if canImport(CCrypto)
  import CCrypto

  /// Incremental SHA-256 over libcrypto's EVP interface (which uses SHA-NI where the CPU has it).
  ///
  /// Owns its `EVP_MD_CTX` and frees it in `deinit`.
  package final class SHA256Hasher {
    private let context: OpaquePointer

    package init() {
      guard let context = photointake_sha256_new() else {
        // libcrypto is part of every Debian system that has the package's dependencies (install-deps.sh), and
        // a context is a few hundred bytes: either failing leaves nothing to hash with.
        let reason = photointake_crypto_load_failure().map { String(cString: $0) } ?? "out of memory"
        fatalError("SHA-256 is unavailable: \(reason)")
      }
      self.context = context
    }

    deinit { photointake_sha256_free(context) }

    package func update(_ bytes: UnsafeRawBufferPointer) {
      guard let base = bytes.baseAddress, bytes.count > 0 else { return }
      _ = photointake_sha256_update(context, base, bytes.count)
    }

    package func finalize() -> SHA256Digest {
      var digest = [UInt8](repeating: 0, count: 32)
      _ = photointake_sha256_final(context, &digest)
      return SHA256Digest(bytes: digest)
    }
  }
#endif
