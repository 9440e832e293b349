#if canImport(PhotosUI) && canImport(SwiftUI)
  import Photos
  import PhotoIntake
  // @preconcurrency: the iOS 17.4 SDK (a Swift 5.10 interface) declares `PHPickerMode.compact` as a mutable
  // `static var`, which Swift 6 refuses to read without it; the value is a constant in practice.
  @preconcurrency import PhotosUI
  import SwiftUI

  extension PickerOptions {
    /// A `PHPickerConfiguration` for these options, preselecting `selection` where PhotoKit allows it
    /// (``PickerOptions/preselectedAssetIdentifiers(for:)``).
    ///
    /// `PHPickerConfiguration(photoLibrary: .shared())` needs no authorization: the picker runs out of process
    /// and only its results carry asset identifiers (PHPicker.h).
    public func pickerConfiguration(preselecting selection: PhotoSelection = PhotoSelection())
      -> PHPickerConfiguration
    {
      var configuration =
        usesPhotoLibrary ? PHPickerConfiguration(photoLibrary: .shared()) : PHPickerConfiguration()
      configuration.filter = filter?.pickerFilter
      configuration.selectionLimit = selectionLimit
      configuration.preferredAssetRepresentationMode = encoding.assetRepresentationMode
      configuration.selection = ordered ? .ordered : .default
      configuration.preselectedAssetIdentifiers = preselectedAssetIdentifiers(for: selection)
      if #available(iOS 17, macOS 14, *) {
        if continuous { configuration.selection = ordered ? .continuousAndOrdered : .continuous }
        configuration.mode = style == .compact ? .compact : .default
        configuration.disabledCapabilities = disabledCapabilities.pickerCapabilities
      }
      return configuration
    }

    /// `PhotosPicker`'s `maxSelectionCount`: nil for no limit.
    public var maxSelectionCount: Int? { selectionLimit > 0 ? selectionLimit : nil }

    /// `PhotosPicker`'s `selectionBehavior`.
    public var selectionBehavior: PhotosPickerSelectionBehavior {
      if #available(iOS 17, macOS 14, *), continuous { return ordered ? .continuousAndOrdered : .continuous }
      return ordered ? .ordered : .default
    }
  }

  extension PickerOptions.Encoding {
    /// `PHPickerConfiguration.AssetRepresentationMode`.
    public var assetRepresentationMode: PHPickerConfiguration.AssetRepresentationMode {
      switch self {
      case .current: .current
      case .compatible: .compatible
      case .automatic: .automatic
      }
    }

    /// `PhotosPicker`'s `preferredItemEncoding`.
    public var itemEncoding: PhotosPickerItem.EncodingDisambiguationPolicy {
      switch self {
      case .current: .current
      case .compatible: .compatible
      case .automatic: .automatic
      }
    }
  }

  extension PickerOptions.Filter {
    /// The `PHPickerFilter` (`any`, `all` and `not` compose as they do in PhotoKit).
    public var pickerFilter: PHPickerFilter {
      switch self {
      case .images: .images
      case .videos: .videos
      case .livePhotos: .livePhotos
      case .screenshots: .screenshots
      case .screenRecordings: .screenRecordings
      case .panoramas: .panoramas
      case .slomoVideos: .slomoVideos
      case .timelapseVideos: .timelapseVideos
      case .bursts: .bursts
      case .depthEffectPhotos: .depthEffectPhotos
      case .cinematicVideos: .cinematicVideos
      case .any(let filters): .any(of: filters.map(\.pickerFilter))
      case .all(let filters): .all(of: filters.map(\.pickerFilter))
      case .not(let filter): .not(filter.pickerFilter)
      }
    }
  }

  extension PickerOptions.Capabilities {
    /// `PHPickerCapabilities` (iOS 17).
    @available(iOS 17, macOS 14, *)
    public var pickerCapabilities: PHPickerCapabilities {
      var capabilities: PHPickerCapabilities = []
      if contains(.search) { capabilities.insert(.search) }
      if contains(.stagingArea) { capabilities.insert(.stagingArea) }
      if contains(.collectionNavigation) { capabilities.insert(.collectionNavigation) }
      if contains(.selectionActions) { capabilities.insert(.selectionActions) }
      if contains(.sensitivityAnalysisIntervention) { capabilities.insert(.sensitivityAnalysisIntervention) }
      return capabilities
    }
  }

  extension PickerOptions.Style {
    /// `PhotosPickerStyle` (iOS 17).
    @available(iOS 17, macOS 14, *)
    public var photosPickerStyle: PhotosPickerStyle {
      switch self {
      case .presentation: .presentation
      case .inline: .inline
      case .compact: .compact
      }
    }
  }
#endif
