import Foundation

extension Importer.Error {
  /// Maps any error a provider reports — an `NSError` from `NSItemProvider` or PhotoKit, with the errors it wraps
  /// under `NSUnderlyingErrorKey` — to the import error a user can act on.
  ///
  /// `NSItemProvider` reports an iCloud photo that cannot be downloaded as "item unavailable" (-1000) around the
  /// PhotoKit error that says why (3164, network access required); the chain is walked so that the specific
  /// cause wins (``init(providerErrorChain:reason:)``). An error that already is an ``Importer/Error`` is kept.
  public init(providerError error: any Error) {
    if let error = error as? Importer.Error {
      self = error
      return
    }
    self.init(providerErrorChain: Self.chain(of: error), reason: (error as NSError).localizedDescription)
  }

  /// Maps an error PhotoKit reported while reading an asset's resources (``AssetResourceProviding``), with the
  /// errors it wraps, as ``init(assetResourceErrorChain:reason:)`` does. An ``Importer/Error`` is kept.
  public init(assetResourceError error: any Error) {
    if let error = error as? Importer.Error {
      self = error
      return
    }
    self.init(assetResourceErrorChain: Self.chain(of: error), reason: (error as NSError).localizedDescription)
  }

  /// The error's domain and code, then those it wraps under `NSUnderlyingErrorKey`, outermost first.
  static func chain(of error: any Error) -> [(domain: String, code: Int)] {
    let outer = error as NSError
    var chain = [(domain: outer.domain, code: outer.code)]
    var next = outer.userInfo[NSUnderlyingErrorKey] as? NSError
    // Bounded: a cycle in a hand-made userInfo must not hang the import.
    while let underlying = next, chain.count < 8 {
      chain.append((underlying.domain, underlying.code))
      next = underlying.userInfo[NSUnderlyingErrorKey] as? NSError
    }
    return chain
  }
}
