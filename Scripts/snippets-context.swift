// The hidden prelude of the documentation's Swift fragments (Scripts/snippets.py copies it next to them).
// It declares what a fragment takes for granted — the app's own folders, helpers and values — with the types
// a reader would expect. The fragments are only compiled, never run, so nothing here has a value.
import Foundation
import PhotoIntake

/// The app's Application Support folder.
var appSupport: URL { fatalError() }
/// The app's support folder, as a path.
var supportFolder: String { fatalError() }
/// A folder the example uses.
var folder: String { fatalError() }
/// A file the example reads.
var path: String { fatalError() }
/// Where the example writes a copy.
var copy: String { fatalError() }
/// Files the user chose.
var paths: [String] { fatalError() }
/// What the example imports.
var sources: [any ItemSource] { fatalError() }
/// A library the app opened earlier.
var library: Library { fatalError() }
/// An asset the app listed earlier.
var asset: Asset { fatalError() }

/// The app's UI updates.
func updateRow(_ index: Int, _ fraction: Double) {}
func updateBar(_ fraction: Double) {}
func show(_ index: Int, _ result: ItemResult) {}
