#if !canImport(CCrypto) && canImport(CryptoKit)
  import CryptoKit

  /// Incremental SHA-256 over CryptoKit.
  package final class SHA256Hasher {
    private var hasher = CryptoKit.SHA256()

    package init() {}

    package func update(_ bytes: UnsafeRawBufferPointer) {
      hasher.update(bufferPointer: bytes)
    }

    package func finalize() -> SHA256Digest {
      SHA256Digest(bytes: hasher.finalize())
    }
  }
#endif
