import PhotoIntake

extension SimulatedPhotoLibrary {
  /// The status for a level (`PHPhotoLibrary.authorizationStatus(for:)`).
  ///
  /// Add-only access is implied by read-write access; `PhotoAccessLevel.none` is always `.authorized`.
  public func authorizationStatus(for level: PhotoAccessLevel) -> AuthorizationStatus {
    state.withLock { $0.status(for: level) }
  }

  /// Asks for access (`PHPhotoLibrary.requestAuthorization(for:)`).
  ///
  /// Like PhotoKit, it prompts only while the status is `.notDetermined`; otherwise it returns the status at
  /// once. The prompt waits for the scripted user: an answer queued with
  /// ``SimulatedUser/willAnswerNextPrompt(_:)``, or one given later with ``SimulatedUser/answerPrompt(_:)``.
  public func requestAuthorization(for level: PhotoAccessLevel) async -> AuthorizationStatus {
    let current = state.withLock { $0.status(for: level) }
    guard current == .notDetermined, level != .none else { return current }
    let answer: SimulatedUser.PromptAnswer = await withCheckedContinuation { continuation in
      state.withLock { state in
        if state.promptAnswers.isEmpty {
          state.pendingPrompts.append(continuation)
        } else {
          continuation.resume(returning: state.promptAnswers.removeFirst())
        }
      }
    }
    mutate { state in
      guard state.status(for: level) == .notDetermined else { return }
      switch (answer, level) {
      case (.allowFullAccess, .readWrite):
        state.readWrite = .authorized
      case (.selectPhotos(let identifiers), .readWrite):
        state.readWrite = .limited
        state.limitedSelection = identifiers.filter { state.assets[$0] != nil }
      case (.allowFullAccess, _), (.selectPhotos, _):
        // The add-only prompt has only "Allow" and "Don't Allow".
        state.addOnly = .authorized
      case (.dontAllow, .readWrite):
        state.readWrite = .denied
      case (.dontAllow, _):
        state.addOnly = .denied
      }
    }
    return authorizationStatus(for: level)
  }

  /// Shows the limited-library picker
  /// (`PHPhotoLibrary.presentLimitedLibraryPicker(from:completionHandler:)`).
  ///
  /// Does nothing and returns no identifiers unless read-write access is `.limited`, as documented. Otherwise it
  /// waits for the scripted user (``SimulatedUser/willChangeLimitedSelection(adding:removing:)`` or
  /// ``SimulatedUser/answerLimitedLibraryPicker(adding:removing:)``), applies the new selection, notifies
  /// observers, and returns only the newly selected identifiers.
  public func presentLimitedLibraryPicker() async -> [String] {
    guard state.withLock({ $0.status(for: .readWrite) }) == .limited else { return [] }
    let answer: SimulatedUser.LimitedPickerAnswer = await withCheckedContinuation { continuation in
      state.withLock { state in
        if state.limitedPickerAnswers.isEmpty {
          state.pendingLimitedPickers.append(continuation)
        } else {
          continuation.resume(returning: state.limitedPickerAnswers.removeFirst())
        }
      }
    }
    return changeLimitedSelection(adding: answer.adding, removing: answer.removing)
  }

  /// Applies a new limited selection; returns the identifiers it added.
  @discardableResult
  func changeLimitedSelection(adding: [String], removing: [String]) -> [String] {
    mutate { state in
      guard state.readWrite == .limited else { return [] }
      let removed = Set(removing)
      state.limitedSelection.removeAll { removed.contains($0) }
      var added: [String] = []
      for identifier in adding
      where state.assets[identifier] != nil && !state.limitedSelection.contains(identifier) {
        state.limitedSelection.append(identifier)
        added.append(identifier)
      }
      return added
    }
  }
}
