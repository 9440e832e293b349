#if canImport(PhotosUI) && canImport(SwiftUI) && canImport(Observation)
  import PhotoIntake
  import PhotosUI
  import SwiftUI

  /// A `PhotosPicker` that imports what the user picks into a ``PhotoImportModel``: as a button (the default
  /// `.presentation` style) or embedded in the app's view (``PickerOptions/Style/inline`` and `compact`, with
  /// continuous selection).
  ///
  /// ```swift
  /// PhotoImportPicker(model: model) { Label("Add photos", systemImage: "photo.badge.plus") }
  /// ```
  @available(iOS 17, macOS 14, *)
  @MainActor
  public struct PhotoImportPicker<Label: View>: View {
    private let model: PhotoImportModel
    private let label: LabelBox
    @State private var items: [PhotosPickerItem] = []

    /// A picker button (or embedded picker) whose button shows `label`.
    public init(model: PhotoImportModel, @ViewBuilder label: () -> Label) {
      self.model = model
      self.label = LabelBox(view: AnyView(label()))
    }

    public var body: some View {
      let options = model.options
      picker(options)
        .photosPickerStyle(options.style.photosPickerStyle)
        .photosPickerDisabledCapabilities(options.disabledCapabilities.pickerCapabilities)
        .photosPickerAccessoryVisibility(options.hidesAccessories ? .hidden : .automatic, edges: .all)
        .modifier(PickerSelectionSync(model: model, items: $items))
    }

    /// With the shared photo library (no permission needed), results carry identifiers and can be preselected
    /// next time; without it they cannot.
    @ViewBuilder
    private func picker(_ options: PickerOptions) -> some View {
      // From the iOS 18 and macOS 15 SDKs on, `PhotosPicker`'s label closure is `@Sendable`: it may neither read
      // this main-actor view's properties nor capture the generic `Label` (its metatype is not Sendable). The
      // box, made before, carries the type-erased label in.
      let label = self.label
      if options.usesPhotoLibrary {
        PhotosPicker(
          selection: $items, maxSelectionCount: options.maxSelectionCount,
          selectionBehavior: options.selectionBehavior, matching: options.filter?.pickerFilter,
          preferredItemEncoding: options.encoding.itemEncoding, photoLibrary: .shared()
        ) { label.view }
      } else {
        PhotosPicker(
          selection: $items, maxSelectionCount: options.maxSelectionCount,
          selectionBehavior: options.selectionBehavior, matching: options.filter?.pickerFilter,
          preferredItemEncoding: options.encoding.itemEncoding
        ) { label.view }
      }
    }
  }

  /// Carries the picker's label into `PhotosPicker`'s label closure.
  private struct LabelBox: @unchecked Sendable {
    // @unchecked: `PhotosPicker` calls its label closure, which is not escaping, inside its initializer, which
    // `body` runs on the main actor; the view never leaves the main actor.
    let view: AnyView
  }

  @available(iOS 17, macOS 14, *)
  extension View {
    /// Presents `PhotosPicker` when `isPresented` is true and imports the selection into `model`.
    ///
    /// ```swift
    /// Button("Add photos") { showPicker = true }
    ///   .photoImportPicker(isPresented: $showPicker, model: model)
    /// ```
    @MainActor
    public func photoImportPicker(isPresented: Binding<Bool>, model: PhotoImportModel) -> some View {
      modifier(PhotoImportPickerModifier(isPresented: isPresented, model: model))
    }
  }

  @available(iOS 17, macOS 14, *)
  @MainActor
  struct PhotoImportPickerModifier: ViewModifier {
    @Binding var isPresented: Bool
    let model: PhotoImportModel
    @State private var items: [PhotosPickerItem] = []

    func body(content: Content) -> some View {
      let options = model.options
      content
        .photosPicker(
          isPresented: $isPresented, selection: $items, maxSelectionCount: options.maxSelectionCount,
          selectionBehavior: options.selectionBehavior, matching: options.filter?.pickerFilter,
          preferredItemEncoding: options.encoding.itemEncoding, photoLibrary: .shared()
        )
        .modifier(PickerSelectionSync(model: model, items: $items))
    }
  }

  /// Keeps `PhotosPicker`'s selection and the model in step: the picker opens with the model's selection
  /// preselected, each change of the picker's selection is imported, and when the app removes or reorders
  /// items, an embedded picker's selection follows (``PhotoImportModel/pickerItems(following:)``).
  @available(iOS 17, macOS 14, *)
  @MainActor
  struct PickerSelectionSync: ViewModifier {
    let model: PhotoImportModel
    @Binding var items: [PhotosPickerItem]

    func body(content: Content) -> some View {
      content
        .onAppear { items = model.preselectedPickerItems }
        .onChange(of: items) { _, new in model.pick(new) }
        .onChange(of: model.selection) { _, _ in
          let following = model.pickerItems(following: items)
          if following != items { items = following }
        }
    }
  }
#endif
