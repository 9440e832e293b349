/// The staged items waiting for their group commit, owned by the ``Library`` actor.
///
/// Group commit as git's batched fsync and databases' group commit do it: what costs an import its time on
/// a disk is the wait for each flush, not the bytes (each staged file is already fsynced when it joins the
/// queue). So the items that finished staging while one group was committing form the next group, and
/// share its intent commit, its folder fsyncs and its row commit (``GroupCommit``).
///
/// Nothing waits to fill a group: an item that finds no group committing starts one at once, alone, so an
/// import whose items trickle in (a picker delivering one photo a second) pays no added latency. Groups grow
/// only when items arrive faster than the disk flushes, which is exactly when sharing the flushes pays.
///
/// A group is capped at ``maximumGroupSize`` items, which bounds how long an acknowledgement waits behind
/// others. There is no cap in bytes: the data is on disk before an item joins, so a group's commit writes
/// names and rows whose cost grows with its item count, not its size.
struct CommitQueue {
  /// One waiting item and where its result goes.
  struct Waiting {
    var request: CommitRequest
    var reply: CheckedContinuation<Result<CommitOutcome, CommitFailure>, Never>
  }

  /// The most items one group commits.
  static let maximumGroupSize = 32

  /// Items in arrival order.
  private(set) var waiting: [Waiting] = []
  /// Whether a group is being committed (its task takes the next group when it is done).
  var isCommitting = false

  mutating func append(_ item: Waiting) { waiting.append(item) }

  /// Takes the next group: up to ``maximumGroupSize`` items in arrival order, each with bytes no earlier item
  /// of the group has. An item with the same bytes as one before it waits for the next group, where it
  /// finds that item's asset and is listed as its duplicate, instead of both placing the same object.
  mutating func nextGroup() -> [Waiting] {
    var group: [Waiting] = []
    var digests: Set<SHA256Digest> = []
    var kept: [Waiting] = []
    for item in waiting {
      if group.count < Self.maximumGroupSize, digests.insert(item.request.staged.digest).inserted {
        group.append(item)
      } else {
        kept.append(item)
      }
    }
    waiting = kept
    return group
  }
}
