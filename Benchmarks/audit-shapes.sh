#!/usr/bin/env bash
# audit-shapes.sh [N]   (run from anywhere; default N=4000)
# Measures how `intake audit` (release build) scales on one core (taskset -c 0) on generated files that
# repeat one hostile shape (45 of them): each shape is audited at N and at 4N copies, and the script prints the CPU
# seconds of both and their ratio. A linear pass gives a ratio near 4; a pass that walks every earlier
# copy for each copy gives 16. Shapes (each once made the audit quadratic, found by reviews):
#   outside-assets   thousands of top-level assets, each read by its own member of one type
#   private-assets   thousands of `private var clip: AVAsset?`, one a line, each set and read
#   one-line-type    a type of thousands of members on one line, separated by `;`
#   call-labels      one call of thousands of labeled arguments
#   nested-helpers   functions nested thousands deep, reached from a collection-view cell
#   nested-inputs    `AVCaptureDeviceInput(device:` nested thousands deep
#   asset-params     thousands of functions each reading an `AVAsset` parameter
#   one-long-list    one function of thousands of `AVAsset` parameters
#   requests-in-if   thousands of legacy authorization requests inside one `if` of thousands of conditions
#   type-chain       thousands of types handing a stored asset to the next
#   nested-funcs     functions nested thousands deep, each reading its asset parameter
#   member-chain     `a.duration.duration…`, 2N members long
#   same-name        thousands of view controllers each declaring and calling `setupUI()`
#   subclass-chain   thousands of subclasses deep, each calling `super.viewDidLoad()`
#   overloads        thousands of overloads `f(a:xN:)`, each called once by its labels
#   nested-closures  `DispatchQueue.main.async {` nested 4N deep, an asset read at each level
#   nested-blocks    `if c {` nested 4N deep, an asset read at each level
#   nested-lets      `let w = { … }()` nested thousands deep beside semaphores
#   comparisons      10N `let v = a > (b) { 0 }`
#   nested-types     2N classes nested, each with a method
#   nested-ifs       `#if DEBUG` nested 10N deep
#   nested-foreach   `xs.forEach { _ in g() }` nested 2N deep
#   sync-options     thousands of options made synchronous in one function
#   unknown-options  2N requests passing options neither local nor a parameter
#   temp-deep        a temporary URL passed at N/32 call sites to a method that passes it on N/32 times
#   temp-aliases     4N `let pK = url.path` in one `loadFileRepresentation` handler
#   id-flow          `let c = [d…]; let b = [c…]; let a = [b…]` of N/40 names each, saved to UserDefaults
#   source-defaults  one function of N/8 defaulted `SourceType` parameters and N/8 calls
#   try-list         one array literal of 4N `try!` after one that loads an item
#   list-data        thousands of decodes appended to a local that a list draws
#   limited-guard    thousands of `guard status != .authorized else { return }` in one function
#   foreach-grid     thousands of `ForEach(0..<assets.count)` over a fetch result in one view
#   level-params     thousands of functions of one name, each passing its level parameter on and making a request
#   asset-bindings   `requestAVAsset` handlers nested thousands deep, each binding its asset under another name
#                    (`let bK = aK`, then `let bK = bK` again) and reading it in a `DispatchQueue.main` block
#   work-items       thousands of `DispatchWorkItem`s and `BlockOperation`s in one function, each reading its own
#                    asset and executed right after on another queue
#   picker-names     thousands of pickers of distinct names in one function, each configured and never shown
#   strip-types      types nested N/4 deep, each copying frames in a loop beside image views made in a loop
#   singleton-types  types nested N/4 deep, each keeping a shared instance of itself and registering an observer
#   default-pickers  thousands of local pickers in one function, each shown at its default source, one set to .camera
#   full-requests    thousands of full-size PhotoKit requests in one function, each appending into a grid's array
#   created-views    N/4 SwiftUI views, each making the next in its body, the first made by a ForEach
#   main-queue-lets  thousands of `let qK = DispatchQueue.main` in one function, each running a session start
#   replaced-assets  thousands of extensions of one controller, each reading its stored asset and replacing it
#   image-encodes    thousands of screen-sized copies encoded in one function, beside a cell decoding stored data
#   picker-subclasses thousands of UIImagePickerController subclasses, each made in one function
# SHAPES="a b" runs only those shapes.
# INTAKE= audits with that binary instead of the release build; BASELINE= also measures another `intake`
# (an earlier build) on the same files, printing its ratio beside ours. A ratio above 8 is marked.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-4000}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/intake-audit-shapes.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
if [ -z "${INTAKE:-}" ]; then
  INTAKE=$(Scripts/build-release.sh | tail -1)
fi
BASELINE=${BASELINE:-}

python3 - "$WORK" "$N" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
header = "import AVFoundation\nimport Photos\nimport UIKit\n"

def outside_assets(k):
    globals_ = "".join(f'let g{i} = AVAsset(url: URL(fileURLWithPath: "{i}"))\n' for i in range(k))
    members = "".join(f"  func f{i}() {{ _ = g{i}.tracks(withMediaType: .video) }}\n" for i in range(k))
    return header + globals_ + "final class V: UIViewController {\n" + members + "}\n"

def private_assets(k):
    declarations = "".join(f"  private var clip{i}: AVAsset?\n" for i in range(k))
    members = "".join(
        f"  func open{i}(_ url: URL) {{ clip{i} = AVAsset(url: url); _ = clip{i}?.duration }}\n"
        f"  func show{i}() {{ _ = clip{i}?.duration }}\n" for i in range(k))
    return header + "final class V: UIViewController {\n" + declarations + members + "}\n"

def one_line_type(k):
    members = "; ".join(f"var a{i}: Int?" for i in range(k))
    return (header + "final class V: UIViewController { " + members
            + '; let asset = AVAsset(url: URL(fileURLWithPath: "a")); '
            + "func show() { _ = asset.tracks(withMediaType: .video) } }\n")

def call_labels(k):
    labels = ", ".join(f"a{i}: {i}" for i in range(k))
    return (header + "final class V: UIViewController { override func viewDidLoad() { "
            + 'let asset = AVAsset(url: URL(string: "https://x/a.mp4")!); '
            + "_ = asset.tracks(withMediaType: .video); print(" + labels + ") } }\n")

def nested_helpers(k):
    nest = "func show() { _ = stored(name)\n" * k + "}\n" * k
    return (header + "func stored(_ name: String) -> UIImage? { UIImage(contentsOfFile: name) }\n"
            + 'final class PhotoCell: UICollectionViewCell {\n  let name = "a"\n  func configure() { show() }\n'
            + nest + "}\n"
            + "final class VC: UIViewController, UICollectionViewDataSource {\n"
            + "  func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath)"
            + " -> UICollectionViewCell {\n"
            + '    let cell = collectionView.dequeueReusableCell(withReuseIdentifier: "c", for: indexPath)'
            + " as! PhotoCell\n    cell.configure()\n    return cell\n  }\n}\n")

def nested_inputs(k):
    expression = "AVCaptureDeviceInput(device: " * k + "cameraDevice" + ")" * k
    return (header + "final class V: UIViewController {\n  func f(cameraDevice: AVCaptureDevice) { _ = try? "
            + expression + " }\n}\n")

def asset_params(k):
    functions = "".join(f"  func f{i}(a: AVAsset) {{ _ = a.duration }}\n" for i in range(k))
    return header + "final class V: UIViewController {\n" + functions + "}\n"

def one_long_list(k):
    parameters = ", ".join(f"a{i}: AVAsset" for i in range(k))
    return (header + "final class V: UIViewController {\n  func f(" + parameters
            + ") { _ = a0.duration }\n}\n")

def requests_in_if(k):
    condition = " && ".join(f"c{i}" for i in range(k))
    requests = "      PHPhotoLibrary.requestAuthorization { _ in }\n" * k
    return (header + "final class V: UIViewController {\n  func save(_ image: UIImage) {\n    if " + condition
            + " {\n" + requests + "    }\n"
            + "    PHPhotoLibrary.shared().performChanges({ PHAssetChangeRequest.creationRequestForAsset(from: image) })\n"
            + "  }\n}\n")

def type_chain(k):
    out = [header]
    for i in range(k):
        out.append(f"final class T{i} {{ let asset: AVAsset; init(asset: AVAsset) {{ self.asset = asset }}; ")
        out.append(f"func next() {{ _ = T{i + 1}(asset: asset) }} }}\n" if i + 1 < k
                   else "func show() { _ = asset.tracks(withMediaType: .video) } }\n")
    return "".join(out)

def nested_funcs(k):
    nest = "".join(f"func g{i}(a: AVAsset) {{ _ = a.duration\n" for i in range(k)) + "}\n" * k
    return header + "final class V: UIViewController {\n" + nest + "}\n"

def member_chain(k):
    return (header + "final class V: UIViewController {\n func f(a: AVAsset) {\n _ = a"
            + ".duration" * (2 * k) + "\n }\n}\n")

def same_name(k):
    screens = "".join(
        f"final class C{i}: UIViewController {{ override func viewDidLoad() {{ super.viewDidLoad(); "
        "self.setupUI(); setupUI() }\n  func setupUI() { view.backgroundColor = .white } }\n" for i in range(k))
    return header + "final class A: UIViewController { func f(a: AVAsset) { _ = a.duration } }\n" + screens

def subclass_chain(k):
    chain = "".join(f"class C{i + 1}: C{i} {{ override func viewDidLoad() {{ super.viewDidLoad() }} }}\n"
                    for i in range(k))
    return header + "class C0: UIViewController { func f(a: AVAsset) { _ = a.duration } }\n" + chain

def overloads(k):
    calls = "; ".join(f"f(a: a, x{i}: 1)" for i in range(k))
    members = "".join(f"  func f(a: AVAsset, x{i}: Int) {{ _ = a.duration }}\n" for i in range(k))
    return (header + "final class V: UIViewController {\n  override func viewDidLoad() { super.viewDidLoad(); "
            + 'let a = AVAsset(url: URL(fileURLWithPath: "a")); ' + calls + " }\n" + members + "}\n")

def nested_reads(opening, parameters, k):
    return (header + "final class V: UIViewController {\n func f(" + parameters + ") {\n"
            + (opening + "\n _ = a.duration\n") * k + "}\n" * k + " }\n}\n")

def nested_closures(k):
    return nested_reads("DispatchQueue.main.async {", "a: AVAsset", 4 * k)

def nested_blocks(k):
    return nested_reads("if c {", "a: AVAsset, c: Bool", 4 * k)

def nested_lets(k):
    nest = "".join(f"    let v{i} = DispatchSemaphore(value: 0); let a{i} = AVAsset(url: URL(fileURLWithPath: \"a\")); "
                   f"let w{i} = {{ () -> Int in\n" for i in range(k)) + "    0\n" + "    }()\n" * k
    return (header + "final class V: UIViewController {\n  func f(a: AVAsset) {\n    _ = a.duration\n"
            + "    let s = DispatchSemaphore(value: 0); s.wait()\n" + nest + "  }\n}\n")

def comparisons(k):
    body = "\n".join(f"    let v{i} = a > (b) {{ 0 }}" for i in range(10 * k))
    return header + "final class V: UIViewController {\n  func f(a: Int, b: Int) {\n" + body + "\n  }\n}\n"

def nested_types(k):
    return header + "".join(
        f"class T{i} {{ func f{i}(a: AVAsset) {{ _ = a.duration; "
        f"DispatchQueue.main.async {{ _ = UIImage(contentsOfFile: \"x\") }} }}\n" for i in range(2 * k)) + "}\n" * (2 * k)

def nested_ifs(k):
    return (header + "final class V: UIViewController {\n func f(a: AVAsset) {\n"
            + "#if DEBUG\n _ = a.duration\n" * (10 * k) + "#endif\n" * (10 * k) + " }\n}\n")

def nested_foreach(k):
    nest = "".join(f"    xs.forEach {{ _ in g(k: {i})\n" for i in range(2 * k)) + "    }\n" * (2 * k)
    return (header + "final class V: UIViewController {\n  let xs = [1]\n  func g(k: Int) { }\n"
            + "  func f(a: AVAsset) {\n    _ = a.duration\n" + nest + "  }\n}\n")

def sync_options(k):
    body = "\n".join(f"    let o{i} = PHImageRequestOptions()\n    o{i}.isSynchronous = true" for i in range(k))
    return (header + "final class V: UIViewController {\n  func f(asset: PHAsset) {\n" + body
            + "\n    PHImageManager.default().requestImage(for: asset, targetSize: CGSize(width: 10, height: 10), "
            + "contentMode: .aspectFill, options: o0) { _, _ in }\n  }\n}\n")

def unknown_options(k):
    body = ("    PHImageManager.default().requestImage(for: asset, targetSize: CGSize(width: 1, height: 1), "
            "contentMode: .aspectFit, options: opts) { _, _ in }\n") * (2 * k)
    return (header + "final class V: UIViewController {\n  func f(asset: PHAsset) {\n" + body + "  }\n"
            + "  func g(asset: PHAsset) {\n    let o = PHImageRequestOptions()\n    o.isSynchronous = true\n"
            + "    f(asset: asset)\n  }\n}\n")
def temp_deep(k):
    k = max(1, k // 32)
    first = "      self.m1(u: url)\n" * k
    second = "    self.m2(u: u)\n" * k
    return (header + "import UniformTypeIdentifiers\nfinal class V: UIViewController {\n"
            + "  func m1(u: URL) {\n" + second + "  }\n  func m2(u: URL) {\n" + "    print(u)\n" * k + "  }\n"
            + "  func pick(_ provider: NSItemProvider) {\n"
            + "    provider.loadFileRepresentation(forTypeIdentifier: UTType.movie.identifier) { url, error in\n"
            + first + "    }\n  }\n}\n")

def temp_aliases(k):
    aliases = "".join(f"      let p{i} = url.path\n" for i in range(4 * k))
    return (header + "import UniformTypeIdentifiers\nfinal class V: UIViewController {\n"
            + "  func pick(_ provider: NSItemProvider) {\n"
            + "    provider.loadFileRepresentation(forTypeIdentifier: UTType.movie.identifier) { url, error in\n"
            + aliases + "      print(p0)\n    }\n  }\n}\n")

def id_flow(k):
    def names(name):
        return "[" + ", ".join([name] * max(1, k // 40)) + "]"
    return (header + "final class V: UIViewController {\n  func f() {\n    let d = \"x\"\n"
            + f"    let c = {names('d')}\n    let b = {names('c')}\n    let a = {names('b')}\n"
            + '    UserDefaults.standard.set(a, forKey: "k")\n  }\n}\n')

def source_defaults(k):
    k = max(1, k // 8)
    parameters = ", ".join(f"s{i}: UIImagePickerController.SourceType = .photoLibrary" for i in range(k))
    calls = "".join(f"    present(s{i}: .camera)\n" for i in range(k))
    return (header + "final class V: UIViewController {\n  func present(" + parameters + ") {\n"
            + "    let p = UIImagePickerController(); p.sourceType = s0; present(p, animated: true)\n  }\n"
            + "  func go() {\n" + calls + "  }\n}\n")

def try_list(k):
    tries = ", ".join(["try! g()"] * (4 * k))
    load = 'try! g(provider.loadItem(forTypeIdentifier: "public.image", options: nil))'
    return (header + "func g(_ x: Any? = nil) throws -> Int { 0 }\nfinal class V: UIViewController {\n"
            + "  func f(_ provider: NSItemProvider) {\n    let x = [" + load + ", " + tries + "]\n"
            + "    print(x)\n  }\n}\n")

def list_data(k):
    decodes = "".join(f"    loaded.append(UIImage(data: d{i % 10})!)\n" for i in range(k))
    parameters = ", ".join(f"d{i}: Data" for i in range(10))
    return (header + "import SwiftUI\nfinal class Model: ObservableObject {\n"
            + "  @Published var photos: [UIImage] = []\n  func load(" + parameters + ") {\n"
            + "    var loaded: [UIImage] = []\n" + decodes + "    photos = loaded\n  }\n}\n"
            + "struct Grid: View {\n  @ObservedObject var model: Model\n  var body: some View {\n"
            + "    List { ForEach(model.photos, id: \\.self) { image in Image(uiImage: image) } }\n  }\n}\n")

def limited_guard(k):
    guards = "    guard status != .authorized else { return }\n" * k
    return (header + "final class V: UIViewController {\n  func f() {\n"
            + "    let status: PHAuthorizationStatus = PHPhotoLibrary.authorizationStatus(for: .readWrite)\n"
            + guards + "    PHPhotoLibrary.requestAuthorization(for: .readWrite) { _ in }\n  }\n}\n")

def foreach_grid(k):
    loops = "".join(f'      ForEach(0..<assets.count, id: \\.self) {{ i in Text("{i}") }}\n' for i in range(k))
    return (header + "import SwiftUI\nstruct Grid: View {\n"
            + "  var assets: PHFetchResult<PHAsset> = PHAsset.fetchAssets(with: nil)\n"
            + "  var body: some View {\n    VStack {\n" + loops + "    }\n  }\n}\n")

def level_params(k):
    # Every function hands its level on to the same-named next one, each with a request: the levels a
    # request's parameter may hold are followed through callers, within one budget per file.
    out = [header, "import PhotosUI\nlet configuration = PHPickerConfiguration()\nstruct S {\n"]
    for i in range(k):
        out.append(f"  func ask(level: PHAccessLevel) {{ ask(level: level); ask(level: .readWrite)\n"
                   f"    PHPhotoLibrary.requestAuthorization(for: level) {{ _ in }} }}\n")
    out.append("}\n")
    return "".join(out)

def asset_bindings(k):
    # Each binding asks whether its value names an asset: a walk over the scopes around it, bounded however
    # deep the handlers nest.
    nest = "".join(f"    PHImageManager.default().requestAVAsset(forVideo: v, options: nil) {{ a{i}, _, _ in\n"
                   f"    let b{i} = a{i}; let b{i} = b{i}\n"
                   f"    DispatchQueue.main.async {{ _ = b{i}.duration }}\n" for i in range(k))
    return (header + "final class V: UIViewController {\n  func show(_ v: PHAsset) {\n" + nest
            + "    }\n" * k + "  }\n}\n")

def work_items(k):
    # Where each block runs is looked for in a bounded window around it, not in the whole file per block.
    body = "".join(f"    let a{i} = AVAsset(url: u)\n"
                   + (f"    let w{i} = DispatchWorkItem {{ _ = a{i}.duration }}\n    q.async(execute: w{i})\n" if i % 2 == 0
                      else f"    let w{i} = BlockOperation {{ _ = a{i}.duration }}\n    o.addOperation(w{i})\n")
                   for i in range(k))
    return (header + "final class V: UIViewController {\n  let q = DispatchQueue(label: \"q\")\n"
            + "  let o = OperationQueue()\n  func show(_ u: URL) {\n" + body + "  }\n}\n")

def picker_names(k):
    # Thousands of pickers of distinct names, each only configured: whether a picker is ever shown is read
    # in one pass over the file, not once per name.
    lines = "".join(f"    let p{i} = UIImagePickerController(); p{i}.sourceType = .photoLibrary\n" for i in range(k))
    return header + "final class V: UIViewController {\n  func f() {\n" + lines + "  }\n}\n"

def default_pickers(k):
    # Whether a local picker's function returns it is read once per function, not once per picker.
    lines = "".join(f"    let p{i} = UIImagePickerController()\n    present(p{i}, animated: true)\n" for i in range(k))
    return (header + "final class V: UIViewController {\n  func f() {\n    p0.sourceType = .camera\n" + lines
            + "  }\n}\n")

def full_requests(k):
    # Full-size requests outside cells are followed into list data a bounded number of times per file.
    lines = "".join("    PHImageManager.default().requestImage(for: a, targetSize: PHImageManagerMaximumSize, "
                    "contentMode: .aspectFit, options: nil) { image, _ in self.images.append(image!) }\n"
                    for _ in range(k))
    return (header + "import SwiftUI\nfinal class M: ObservableObject {\n  @Published var images: [UIImage] = []\n"
            "  func load(a: PHAsset) {\n" + lines + "  }\n}\n"
            "struct G: View {\n  @StateObject var m = M()\n  var body: some View {\n"
            "    List { ForEach(m.images, id: \\.self) { Image(uiImage: $0) } }\n  }\n}\n")

def created_views(k):
    # Views that views in a list make are followed a bounded number of rounds, each over every file once.
    k = max(2, k // 4)
    views = "".join(f"struct V{i}: View {{\n  var body: some View {{ V{i + 1}() }}\n}}\n" for i in range(k))
    return (header + "import SwiftUI\nstruct G: View {\n  let xs = [1]\n  var body: some View {\n"
            "    List { ForEach(xs, id: \\.self) { _ in V0() } }\n  }\n}\n" + views
            + f"struct V{k}: View {{\n  var body: some View {{ Image(uiImage: UIImage(data: Data())!) }}\n}}\n")

def main_queue_lets(k):
    # The names given the main queue are read in one pass over the project.
    lines = "".join(f"    let q{i} = DispatchQueue.main\n    q{i}.async {{ self.s.startRunning() }}\n" for i in range(k))
    return header + "final class V: UIViewController {\n  let s = AVCaptureSession()\n  func f() {\n" + lines + "  }\n}\n"

def replaced_assets(k):
    # Each extension of V asks for the stored assets V replaces: the file's type scopes are grouped once.
    exts = "".join(f"extension V {{\n  @objc func r{i}() {{ let c = prep(); print(c, asset.duration) }}\n"
                   f"  func n{i}(_ u: URL) {{ self.asset = AVURLAsset(url: u) }}\n}}\n" for i in range(k))
    return (header + "final class V: UIViewController {\n  var asset: AVAsset!\n"
            "  func prep() -> Int { print(asset.tracks(withMediaType: .video)); return 1 }\n}\n" + exts)

def image_encodes(k):
    # Each encode looks back a bounded number of tokens for its receiver's binding.
    lines = "".join(f"    let s{i} = image.resizeImage(to: 10)\n    store(s{i}.jpegData(compressionQuality: 1))\n"
                    for i in range(k))
    return (header + "final class C: UICollectionViewCell {\n  let v = UIImageView()\n"
            "  func show(_ e: E) { v.image = UIImage(data: e.imageData) }\n}\n"
            "struct E { var imageData: Data }\n"
            "final class S {\n  func store(_ d: Data?) {}\n  func save(image: UIImage) {\n" + lines + "  }\n}\n")

def picker_subclasses(k):
    # Subclasses of the picker are collected once per project; each `()` is one lookup.
    classes = "".join(f"final class P{i}: UIImagePickerController {{ var tag{i} = 0 }}\n" for i in range(k))
    lines = "".join(f"    present(P{i}(), animated: true)\n" for i in range(k))
    return (header + classes + "final class V: UIViewController {\n  func f() {\n" + lines + "  }\n}\n")

def nested_types_each(k, body):
    # Types nested k/4 deep, each with the same members (`body`, a type's opening and members).
    k = max(1, k // 4)
    return header + body * k + "}\n" * k

def strip_types(k):
    # Each copies frames in a loop and makes image views in a loop.
    return nested_types_each(k, "class T {\n  func f(g: AVAssetImageGenerator) {\n"
                             "    for t in [CMTime.zero] { _ = try? g.copyCGImage(at: t, actualTime: nil) }\n"
                             "    for _ in 0..<2 { _ = UIImageView(image: nil) }\n  }\n")

def singleton_types(k):
    # Each keeps a shared instance of itself and registers an observer.
    return nested_types_each(k, "class T: NSObject, PHPhotoLibraryChangeObserver {\n  static let shared = T()\n"
                             "  func photoLibraryDidChange(_ c: PHChange) {}\n"
                             "  func start() { PHPhotoLibrary.shared().register(self) }\n")

plist = ('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict>'
         "<key>CFBundleIdentifier</key><string>a.b</string></dict></plist>\n")
shapes = {
    "outside-assets": outside_assets, "private-assets": private_assets, "one-line-type": one_line_type,
    "call-labels": call_labels, "nested-helpers": nested_helpers, "nested-inputs": nested_inputs,
    "asset-params": asset_params, "one-long-list": one_long_list, "requests-in-if": requests_in_if,
    "type-chain": type_chain, "nested-funcs": nested_funcs, "member-chain": member_chain,
    "same-name": same_name, "subclass-chain": subclass_chain, "overloads": overloads,
    "nested-closures": nested_closures, "nested-blocks": nested_blocks, "nested-lets": nested_lets,
    "comparisons": comparisons, "nested-types": nested_types, "nested-ifs": nested_ifs,
    "nested-foreach": nested_foreach, "sync-options": sync_options, "unknown-options": unknown_options,
    "temp-deep": temp_deep, "temp-aliases": temp_aliases, "id-flow": id_flow,
    "source-defaults": source_defaults, "try-list": try_list, "list-data": list_data,
    "limited-guard": limited_guard, "foreach-grid": foreach_grid, "level-params": level_params,
    "asset-bindings": asset_bindings, "work-items": work_items,
    "picker-names": picker_names, "strip-types": strip_types, "singleton-types": singleton_types,
    "default-pickers": default_pickers, "full-requests": full_requests, "created-views": created_views,
    "main-queue-lets": main_queue_lets, "replaced-assets": replaced_assets, "image-encodes": image_encodes,
    "picker-subclasses": picker_subclasses,
}
for name, make in shapes.items():
    for size in (n, 4 * n):
        folder = os.path.join(root, f"{name}-{size}")
        os.makedirs(folder)
        with open(os.path.join(folder, "V.swift"), "w") as f:
            f.write(make(size))
        with open(os.path.join(folder, "Info.plist"), "w") as f:
            f.write(plist)
PY

# CPU seconds (user + system) of one audit on one core.
cpu() {
  local line
  line=$( { /usr/bin/time -f '%U %S' taskset -c 0 "$1" audit "$2" --format json >/dev/null || true; } 2>&1 | tail -1)
  awk '{ printf "%.2f", $1 + $2 }' <<<"$line"
}

printf '%-16s %10s %10s %7s' shape "N=$N" "4N" ratio
[ -n "$BASELINE" ] && printf '   %10s %10s %7s' "base N" "base 4N" ratio
printf '\n'
for shape in outside-assets private-assets one-line-type call-labels nested-helpers nested-inputs \
  asset-params one-long-list requests-in-if type-chain nested-funcs member-chain same-name subclass-chain \
  overloads nested-closures nested-blocks nested-lets comparisons nested-types nested-ifs nested-foreach \
  sync-options unknown-options temp-deep temp-aliases id-flow source-defaults try-list list-data \
  limited-guard foreach-grid level-params asset-bindings work-items picker-names strip-types \
  singleton-types default-pickers full-requests created-views main-queue-lets replaced-assets image-encodes \
  picker-subclasses; do
  if [ -n "${SHAPES:-}" ] && [[ " $SHAPES " != *" $shape "* ]]; then continue; fi
  small=$(cpu "$INTAKE" "$WORK/$shape-$N")
  large=$(cpu "$INTAKE" "$WORK/$shape-$((4 * N))")
  ratio=$(awk -v a="$small" -v b="$large" 'BEGIN { printf "%.1f", b / (a > 0.01 ? a : 0.01) }')
  mark=$(awk -v r="$ratio" -v b="$large" 'BEGIN { print (r > 8 && b > 0.5) ? " !" : "" }')
  printf '%-16s %9ss %9ss %6s%s' "$shape" "$small" "$large" "$ratio" "$mark"
  if [ -n "$BASELINE" ]; then
    base_small=$(cpu "$BASELINE" "$WORK/$shape-$N")
    base_large=$(cpu "$BASELINE" "$WORK/$shape-$((4 * N))")
    base_ratio=$(awk -v a="$base_small" -v b="$base_large" 'BEGIN { printf "%.1f", b / (a > 0.01 ? a : 0.01) }')
    printf '   %9ss %9ss %6s' "$base_small" "$base_large" "$base_ratio"
  fi
  printf '\n'
done
echo "(ratio: CPU seconds at 4N over N; linear is about 4, quadratic about 16; '!' marks a ratio above 8)"
