extension Library {
  /// Commits a staged file durably (see `GroupCommit`), together with the other items that are waiting, and
  /// returns once its group's rows are committed: only then may the item be acknowledged.
  ///
  /// The commit completes once it has begun: cancelling the calling task does not interrupt it. `queued` is
  /// called once the item has its place in the queue (an import lets its next item in then, in the batch's order).
  func commit(_ request: CommitRequest, queued: @Sendable () -> Void = {}) async
    -> Result<CommitOutcome, CommitFailure>
  {
    await withCheckedContinuation { reply in
      commitQueue.append(CommitQueue.Waiting(request: request, reply: reply))
      queued()
      if !commitQueue.isCommitting {
        commitQueue.isCommitting = true
        // Its own task, so that no item's acknowledgement waits for the groups after its own.
        Task { await commitWaitingGroups() }
      }
    }
  }

  /// Commits groups until no item is waiting. Items that arrive meanwhile (the actor serves them while a
  /// group waits on the disk) join the next group.
  private func commitWaitingGroups() async {
    let groups = GroupCommit(manifest: manifest, store: store, token: writerTokenOrUnowned)
    while true {
      let group = commitQueue.nextGroup()
      if group.isEmpty { break }
      let (results, change) = await groups.commit(group.map(\.request), on: self)
      if !change.isEmpty { publish(change) }
      for (item, result) in zip(group, results) { item.reply.resume(returning: result) }
    }
    commitQueue.isCommitting = false
  }
}
