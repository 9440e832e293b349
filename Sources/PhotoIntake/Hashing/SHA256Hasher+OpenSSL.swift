#if canImport(CCrypto)
  import CCrypto

  /// Incremental SHA-256 over libcrypto's EVP interface (which uses SHA-NI where the CPU has it).
  ///
  /// Owns its `EVP_MD_CTX` and frees it in `deinit`.
  package final class SHA256Hasher {
    private let context: OpaquePointer

    package init() {
      guard let context = photointake_sha256_new() else {
        // Allocation of a few hundred bytes failed: the process is out of memory.
        fatalError("libcrypto could not allocate a SHA-256 context")
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
