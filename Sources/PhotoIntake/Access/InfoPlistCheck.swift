import Foundation

/// Checks that an app's Info.plist declares the usage descriptions its photo features need.
///
/// A missing description is not a review nit: iOS terminates an app that asks for a permission whose usage
/// description is absent. The check also recommends `PHPhotoLibraryPreventAutomaticLimitedAccessAlert` for
/// apps that browse the library and offer their own "add more photos" action, so that the system does not
/// prompt once per launch on top of it (WWDC20 "Handle the Limited Photos Library in your app").
///
/// ```swift
/// let findings = try InfoPlistCheck.check(plist: data, features: [.pick, .save, .browse])
/// for finding in findings where finding.severity == .error { print(finding) }
/// ```
public enum InfoPlistCheck {
  /// The key that stops the system's automatic limited-library prompt.
  public static let preventAutomaticLimitedAccessAlertKey = "PHPhotoLibraryPreventAutomaticLimitedAccessAlert"

  /// One problem found in an Info.plist.
  public struct Finding: Sendable, Hashable, CustomStringConvertible {
    /// How serious a finding is.
    public enum Severity: String, Sendable, Hashable, Codable {
      /// The app will be terminated (or rejected) when it uses the feature.
      case error
      /// The app works, but the user sees something avoidable.
      case warning
    }

    /// What is wrong with the key.
    public enum Kind: Sendable, Hashable {
      /// The key is absent.
      case missing(UsageDescriptionKey)
      /// The key is present but holds no sentence (empty, whitespace, or not a string).
      case empty(UsageDescriptionKey)
      /// The app browses the library but lets the system prompt about the limited selection on every launch.
      case automaticLimitedAccessAlert
    }

    /// What is wrong.
    public var kind: Kind
    /// The features that need the key, in ``PhotoFeature`` order.
    public var features: [PhotoFeature]

    /// An error for a missing or empty key; a warning for the automatic limited-access alert.
    public var severity: Severity {
      if case .automaticLimitedAccessAlert = kind { .warning } else { .error }
    }

    public var description: String {
      let uses = features.map(\.rawValue).joined(separator: ", ")
      switch kind {
      case .missing(let key):
        return "Info.plist has no \(key.rawValue), which \(uses) needs: iOS terminates the app when it asks "
          + "for this permission. Add the key with a sentence saying why the app needs it."
      case .empty(let key):
        return "Info.plist's \(key.rawValue) is empty or not text, and \(uses) needs it. Write a sentence "
          + "saying why the app needs this permission."
      case .automaticLimitedAccessAlert:
        return "The app browses the photo library but does not set "
          + "\(InfoPlistCheck.preventAutomaticLimitedAccessAlertKey) to true, so iOS may ask users with limited "
          + "access to change their selection on launch. Set it, and offer an \"add more photos\" action instead."
      }
    }
  }

  /// Why an Info.plist could not be checked.
  public enum Error: Swift.Error, Sendable, Hashable, CustomStringConvertible {
    /// The bytes are not a property list (XML or binary).
    case unreadable(reason: String)
    /// The property list's top level is not a dictionary.
    case notADictionary

    public var description: String {
      switch self {
      case .unreadable(let reason):
        "The Info.plist could not be read as a property list (\(reason)). Check that it is valid XML or binary."
      case .notADictionary:
        "The Info.plist's top level is not a dictionary. Check that this is an app's Info.plist."
      }
    }
  }

  /// Checks already-parsed Info.plist entries.
  ///
  /// - Returns: the findings, errors first, each key once.
  public static func check(entries: [String: any Sendable], features: some Sequence<PhotoFeature>)
    -> [Finding]
  {
    let features = PhotoFeature.allCases.filter(Set(features).contains)
    var findings: [Finding] = []
    for key in PhotoFeature.usageDescriptionKeys(for: features) {
      let users = features.filter { $0.usageDescriptionKeys.contains(key) }
      guard let value = entries[key.rawValue] else {
        findings.append(Finding(kind: .missing(key), features: users))
        continue
      }
      let text = (value as? String)?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
      if text.isEmpty { findings.append(Finding(kind: .empty(key), features: users)) }
    }
    if features.contains(.browse), (entries[preventAutomaticLimitedAccessAlertKey] as? Bool) != true {
      findings.append(Finding(kind: .automaticLimitedAccessAlert, features: [.browse]))
    }
    return findings
  }

  /// Parses an Info.plist (XML or binary) and checks it.
  ///
  /// - Throws: ``InfoPlistCheck/Error`` when the bytes are not a dictionary property list.
  public static func check(plist: Data, features: some Sequence<PhotoFeature>) throws(Error) -> [Finding] {
    let object: Any
    do {
      object = try PropertyListSerialization.propertyList(from: plist, options: [], format: nil)
    } catch {
      throw .unreadable(reason: "\(error)")
    }
    guard let dictionary = object as? [String: Any] else { throw .notADictionary }
    var entries: [String: any Sendable] = [:]
    for (key, value) in dictionary {
      // Only strings and booleans matter here; anything else is reported as "not text" for usage keys.
      if let text = value as? String {
        entries[key] = text
      } else if let flag = value as? Bool {
        entries[key] = flag
      } else {
        entries[key] = 0
      }
    }
    return check(entries: entries, features: features)
  }
}
