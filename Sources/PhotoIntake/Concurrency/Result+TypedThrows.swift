extension Result {
  /// `Result(catching:)` that keeps the error's type.
  ///
  /// Swift 6's standard library has this as `Result.init(catching:)`; the Swift 5.10 standard library of the
  /// iOS 17 SDKs (which this package supports) only has the untyped form, whose `Failure` is `any Error`.
  package static func typed(_ body: () throws(Failure) -> Success) -> Result {
    do {
      return .success(try body())
    } catch {
      return .failure(error)
    }
  }

  /// `get()` that throws the error's own type, on every standard library (see ``typed(_:)``).
  package func typedGet() throws(Failure) -> Success {
    switch self {
    case .success(let value): return value
    case .failure(let error): throw error
    }
  }
}
