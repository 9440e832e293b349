/// The library's changes as ``OrderedChanges`` of its ordered list of assets, so a grid can update without
/// reloading.
public typealias LibraryChangeDetails = OrderedChanges<Asset>

extension Library {
  /// Starts observing the library as an ordered list.
  ///
  /// The observation subscribes to ``changes()`` before it reads the first snapshot, so no change can fall
  /// between them (one that lands in between is in both, and yields no details). Iterate ``LibraryObservation/changes`` for the details of each
  /// change; the sequence ends when the library is closed.
  ///
  /// Each asset appears once: in `.date` order by capture or import date; in `.batch` order at its first
  /// import (an asset imported again in a later batch keeps its place).
  ///
  /// ```swift
  /// let observation = try await library.observe(order: .batch)
  /// grid.show(observation.initial)
  /// for try await details in observation.changes { grid.apply(details) }
  /// ```
  ///
  /// - Throws: ``Library/Error`` when the first snapshot cannot be read.
  public func observe(order: ListOrder = .batch) async throws(Error) -> LibraryObservation {
    let stream = changes()
    let initial = try await orderedSnapshot(order: order)
    return LibraryObservation(
      initial: initial,
      changes: LibraryChangeSequence(library: self, order: order, stream: stream, initial: initial))
  }

  /// Every asset once, in `order`.
  ///
  /// Each change costs one listing, O(n) in the library's size; meant for grids of the app's own imports, not
  /// for paging through a million assets (use ``list(order:limit:after:)`` for that).
  nonisolated func orderedSnapshot(order: ListOrder) async throws(Error) -> [Asset] {
    let listed = try await all(order: order)
    guard order == .batch else { return listed }
    var seen = Set<AssetID>()
    return listed.filter { seen.insert($0.id).inserted }
  }
}

/// A first snapshot of the library and the changes after it.
public struct LibraryObservation: Sendable {
  /// The assets when observation started.
  public var initial: [Asset]
  /// The details of each change since.
  public var changes: LibraryChangeSequence
}

/// The library's changes as an `AsyncSequence` of ``LibraryChangeDetails``, built on ``Library/changes()``.
///
/// Several changes that arrive while the consumer is busy are folded into one element when the listing already
/// shows them; a change that moves nothing and changes nothing visible yields no element.
public struct LibraryChangeSequence: AsyncSequence, Sendable {
  public typealias Element = LibraryChangeDetails

  let library: Library
  let order: Library.ListOrder
  let stream: AsyncStream<LibraryChange>
  let initial: [Asset]

  public func makeAsyncIterator() -> Iterator {
    Iterator(library: library, order: order, changes: stream.makeAsyncIterator(), snapshot: initial)
  }

  /// Waits for the library's next change and returns it with its details.
  public struct Iterator: AsyncIteratorProtocol {
    let library: Library
    let order: Library.ListOrder
    var changes: AsyncStream<LibraryChange>.Iterator
    var snapshot: [Asset]

    /// The next change's details; nil when the library is closed.
    ///
    /// - Throws: ``Library/Error`` when the library cannot be listed.
    public mutating func next() async throws -> LibraryChangeDetails? {
      while let change = await changes.next() {
        let after = try await library.orderedSnapshot(order: order)
        // Changes reported by the library, and any asset whose row changed (a change folded into an earlier
        // listing no longer names it).
        var changed = Set(change.updated)
        let earlier = Dictionary(snapshot.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for asset in after where earlier[asset.id].map({ $0 != asset }) == true { changed.insert(asset.id) }
        let details = LibraryChangeDetails(from: snapshot, to: after, changed: changed)
        snapshot = after
        if !details.isEmpty { return details }
      }
      return nil
    }
  }
}
