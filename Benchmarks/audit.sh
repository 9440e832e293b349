#!/usr/bin/env bash
# audit.sh [FILES] [REAL]   (run from anywhere; default FILES=2000)
# Measures `intake audit` (release build) on one core (taskset -c 0) over a generated tree of realistic
# Swift files — models, view models, SwiftUI views, UIKit controllers, networking, utilities, and about one
# file in eight doing photo picking, saving or camera work, some with findings — plus Info.plist and
# project.pbxproj files. Prints files per second (median of 5 runs; wall and CPU time) and, measured in
# the same run, ratios against two reference tools: `grep -rE` for the rules' API names (a floor: reading
# the tree and scanning bytes, no lexing) and `swift format lint` (a SwiftSyntax-based linter, on a
# 200-file sample). With REAL, a folder of real projects (the checkouts Tests/PhotoIntakeAuditTests/
# Evaluation/score.sh makes, or any), it also measures files per second there: real code has longer files
# and more calls for the project model to resolve than the generated tree.
# Then, unless SIZES is empty (default "1 5 10 25 50"), it audits one generated file of each size in MB —
# the same method bodies repeated, with semaphore waits, UserDefaults stores of picker identifiers, image
# decodes, nested interpolations, a long literal line and asset reads after a helper read the same asset
# in every block — and prints seconds per MB and
# peak memory over file size: both must stay flat from 1 to 50 MB (linear time, memory a small multiple).
# INTAKE= audits with that binary instead of the release build; BASELINE= also measures another `intake`
# (an earlier build) on the same trees in the same run, and prints the ratio of CPU times, which is the
# figure that survives a shared machine's load.
set -euo pipefail
cd "$(dirname "$0")/.."
FILES=${1:-2000}
REAL=${2:-}
SIZES=${SIZES-1 5 10 25 50}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/intake-audit-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

python3 - "$WORK/tree" "$FILES" <<'PY'
import os, random, sys
root, count = sys.argv[1], int(sys.argv[2])
rng = random.Random(20261129)
words = ["Account", "Album", "Order", "Invoice", "Receipt", "Trip", "Note", "Recipe", "Workout", "Event",
         "Message", "Profile", "Team", "Project", "Task", "Photo", "Story", "Comment", "Payment", "Place"]
def name(): return rng.choice(words) + rng.choice(["", "Detail", "List", "Summary", "Editor", "Store", "Item"])
def props(n): return "\n".join(f"  var {rng.choice(['title','count','date','amount','identifier','notes','isDone','rating'])}{i}: {rng.choice(['String','Int','Date','Double','Bool','[String]','URL?'])}" for i in range(n))
def methods(n, indent="  "):
    out = []
    for i in range(n):
        body = rng.choice([
            f'{indent}  let formatter = DateFormatter()\n{indent}  formatter.dateStyle = .medium\n{indent}  return formatter.string(from: Date()) + "\\(value{i})"',
            f'{indent}  guard let url = URL(string: "https://api.example.com/v1/items/\\(value{i})") else {{ return "" }}\n{indent}  return url.absoluteString',
            f'{indent}  let parts = "a,b,c".split(separator: ",").map {{ $0.uppercased() }}\n{indent}  /* joined for display; see #{i} */\n{indent}  return parts.joined(separator: " / ")',
            f'{indent}  var result = ""\n{indent}  for index in 0..<value{i} where index % 2 == 0 {{\n{indent}    result += String(index)\n{indent}  }}\n{indent}  return result',
            f'{indent}  let text = """\n{indent}    Multi-line text with "quotes" and \\(value{i}) inside.\n{indent}    """\n{indent}  return text.trimmingCharacters(in: .whitespaces)',
            f'{indent}  let pattern = #"^[A-Z]{{2}}-\\d+$"#\n{indent}  return value{i} > 0 ? pattern : "none"',
        ])
        out.append(f"{indent}/// Formats value {i} for display.\n{indent}func describe{i}(_ value{i}: Int) -> String {{\n{body}\n{indent}}}")
    return "\n\n".join(out)
def model(n):
    return f"import Foundation\n\nstruct {n}: Codable, Identifiable, Hashable {{\n  var id: UUID\n{props(rng.randint(4,12))}\n}}\n\nextension {n} {{\n{methods(rng.randint(3,8))}\n}}\n"
def view_model(n):
    return (f"import Foundation\nimport Combine\n\n@MainActor\nfinal class {n}ViewModel: ObservableObject {{\n  @Published var items: [String] = []\n  @Published var isLoading = false\n  private let client = APIClient()\n\n"
            f"  func load() async {{\n    isLoading = true\n    defer {{ isLoading = false }}\n    do {{\n      items = try await client.fetch(path: \"/{n.lower()}\")\n    }} catch {{\n      print(\"Failed: \\(error.localizedDescription)\")\n    }}\n  }}\n\n{methods(rng.randint(3,10))}\n}}\n")
def swiftui_view(n):
    return (f"import SwiftUI\n\nstruct {n}View: View {{\n  @StateObject private var model = {n}ViewModel()\n  @State private var query = \"\"\n\n  var body: some View {{\n    NavigationStack {{\n      List(model.items, id: \\.self) {{ item in\n        HStack {{\n          Text(item).font(.headline)\n          Spacer()\n          Image(systemName: \"chevron.right\")\n        }}\n      }}\n      .searchable(text: $query)\n      .navigationTitle(\"{n}\")\n      .task {{ await model.load() }}\n    }}\n  }}\n}}\n\nextension {n}View {{\n{methods(rng.randint(2,6))}\n}}\n")
def controller(n):
    return (f"import UIKit\n\nfinal class {n}ViewController: UIViewController, UITableViewDataSource {{\n  private let tableView = UITableView()\n  private var rows: [String] = []\n\n  override func viewDidLoad() {{\n    super.viewDidLoad()\n    tableView.dataSource = self\n    tableView.register(UITableViewCell.self, forCellReuseIdentifier: \"cell\")\n    view.addSubview(tableView)\n  }}\n\n"
            f"  func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {{ rows.count }}\n\n  func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {{\n    let cell = tableView.dequeueReusableCell(withIdentifier: \"cell\", for: indexPath)\n    cell.textLabel?.text = rows[indexPath.row]\n    return cell\n  }}\n\n{methods(rng.randint(3,9))}\n}}\n")
def client(n):
    return (f"import Foundation\n\nactor {n}Client {{\n  private let session = URLSession.shared\n  private let decoder = JSONDecoder()\n\n  func get<T: Decodable>(_ path: String) async throws -> T {{\n    let url = URL(string: \"https://api.example.com\" + path)!\n    let (data, response) = try await session.data(from: url)\n    guard (response as? HTTPURLResponse)?.statusCode == 200 else {{ throw URLError(.badServerResponse) }}\n    return try decoder.decode(T.self, from: data)\n  }}\n\n{methods(rng.randint(2,6))}\n}}\n")
PHOTO_BAD = [
 "import PhotosUI\nimport SwiftUI\n\nstruct {n}PhotoPicker: View {{\n  @State private var item: PhotosPickerItem?\n  @State private var image: Image?\n\n  var body: some View {{\n    PhotosPicker(\"Choose\", selection: $item, matching: .images)\n      .onChange(of: item) {{ _, newItem in\n        Task {{ image = try? await newItem?.loadTransferable(type: Image.self) }}\n      }}\n  }}\n}}\n",
 "import UIKit\n\nfinal class {n}PickerController: UIViewController, UIImagePickerControllerDelegate, UINavigationControllerDelegate {{\n  func choose() {{\n    let picker = UIImagePickerController()\n    picker.sourceType = .photoLibrary\n    picker.delegate = self\n    present(picker, animated: true)\n  }}\n}}\n",
 "import Photos\n\nfinal class {n}Access {{\n  func check(completion: @escaping (Bool) -> Void) {{\n    PHPhotoLibrary.requestAuthorization(for: .readWrite) {{ status in\n      switch status {{\n      case .authorized: completion(true)\n      default: completion(false)\n      }}\n    }}\n  }}\n}}\n",
 "import AVFoundation\nimport UIKit\n\nfinal class {n}CameraController: UIViewController {{\n  let session = AVCaptureSession()\n  override func viewWillAppear(_ animated: Bool) {{\n    super.viewWillAppear(animated)\n    session.startRunning()\n  }}\n}}\n",
]
PHOTO_OK = [
 "import PhotosUI\nimport SwiftUI\n\nstruct {n}PhotoPicker: View {{\n  @State private var item: PhotosPickerItem?\n  @State private var data: Data?\n  // loadTransferable(type: Image.self) would only read PNG.\n  var body: some View {{\n    PhotosPicker(\"Choose\", selection: $item, matching: .images)\n      .onChange(of: item) {{ _, newItem in\n        Task {{ data = try? await newItem?.loadTransferable(type: Data.self) }}\n      }}\n  }}\n}}\n",
 "import AVFoundation\n\nfinal class {n}Camera {{\n  let session = AVCaptureSession()\n  private let queue = DispatchQueue(label: \"camera\")\n  func start() {{ queue.async {{ self.session.startRunning() }} }}\n}}\n",
]
os.makedirs(root, exist_ok=True)
kinds = [model, view_model, swiftui_view, controller, client]
for i in range(count):
    n = name() + str(i)
    folder = os.path.join(root, "App", rng.choice(["Models", "Features", "Services", "Views", "Support"]), f"Module{i % 40}")
    os.makedirs(folder, exist_ok=True)
    if i % 8 == 0:
        text = rng.choice(PHOTO_BAD if i % 16 == 0 else PHOTO_OK).format(n=n)
        text += "\n" + model(n + "Model")
    else:
        text = rng.choice(kinds)(n)
        if rng.random() < 0.5: text += "\n" + model(n + "Extra")
    with open(os.path.join(folder, n + ".swift"), "w") as f: f.write(text)
with open(os.path.join(root, "App", "Info.plist"), "w") as f:
    f.write('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict><key>NSCameraUsageDescription</key><string>Scan.</string></dict></plist>\n')
os.makedirs(os.path.join(root, "App.xcodeproj"), exist_ok=True)
with open(os.path.join(root, "App.xcodeproj", "project.pbxproj"), "w") as f:
    f.write("{ objects = { 1 = { isa = PBXProject; }; 2 = { buildSettings = { INFOPLIST_KEY_NSPhotoLibraryUsageDescription = \"Photos.\"; }; }; }; }\n")
PY

INTAKE=${INTAKE:-$(Scripts/build-release.sh 2>/dev/null)}
BASELINE=${BASELINE:-}
SWIFT_FILES=$(find "$WORK/tree" -name '*.swift' | wc -l)
BYTES=$(find "$WORK/tree" -name '*.swift' -print0 | xargs -0 cat | wc -c)
echo "tree: $SWIFT_FILES Swift files, $((BYTES / 1024)) KiB"

# Runs a command 5 times on core 0 and prints two medians, in seconds: wall time, and CPU time (user +
# system). Core 0 is shared with whatever else the machine runs, so wall time swings with that load; CPU
# time is what the command itself spent.
measure() {
  local walls=() cpus=() line
  for _ in 1 2 3 4 5; do
    line=$( { TIMEFORMAT='%R %U %S'; time taskset -c 0 "$@" >/dev/null 2>&1; } 2>&1 || true)
    walls+=("$(echo "$line" | awk '{print $1}')")
    cpus+=("$(echo "$line" | awk '{print $2 + $3}')")
  done
  echo "$(printf '%s\n' "${walls[@]}" | sort -n | sed -n 3p) $(printf '%s\n' "${cpus[@]}" | sort -n | sed -n 3p)"
}

read -r AUDIT AUDIT_CPU < <(measure "$INTAKE" audit "$WORK/tree" --format json)
FINDINGS=$("$INTAKE" audit "$WORK/tree" --format json | grep -c '"rule"' || true)
read -r GREP GREP_CPU < <(measure grep -rEc 'UIImagePickerController|requestAuthorization|loadTransferable|startRunning|PHPhotoLibrary' "$WORK/tree")
SAMPLE="$WORK/sample"
mkdir -p "$SAMPLE"
find "$WORK/tree" -name '*.swift' | sort | sed -n '1,200p' | xargs -I{} cp {} "$SAMPLE/"
read -r FORMAT FORMAT_CPU < <(measure swift format lint --recursive "$SAMPLE")

rate() { echo "scale=0; $1 / $2" | bc; }
AUDIT_RATE=$(rate "$SWIFT_FILES" "$AUDIT")
echo "intake audit:      ${AUDIT}s wall, ${AUDIT_CPU}s CPU for $SWIFT_FILES files ($FINDINGS findings)"
echo "                   = $AUDIT_RATE files/s wall, $(rate "$SWIFT_FILES" "$AUDIT_CPU") files/s of CPU, on one core"
echo "grep -rE (floor):  ${GREP}s wall, ${GREP_CPU}s CPU = $(rate "$SWIFT_FILES" "$GREP") files/s;" \
  "intake audit takes $(echo "scale=1; $AUDIT / $GREP" | bc)x grep's wall time"
echo "swift format lint: ${FORMAT}s wall, ${FORMAT_CPU}s CPU for 200 files = $(rate 200 "$FORMAT") files/s;" \
  "intake audit is $(echo "scale=1; ($SWIFT_FILES / $AUDIT) / (200 / $FORMAT)" | bc)x faster"
echo "target: 2000 files/s -> $([ "$AUDIT_RATE" -ge 2000 ] && echo met || echo MISSED)"
if [ -n "$BASELINE" ]; then
  read -r BASE BASE_CPU < <(measure "$BASELINE" audit "$WORK/tree" --format json)
  echo "baseline:          ${BASE}s wall, ${BASE_CPU}s CPU; this build takes $(echo "scale=2; $AUDIT_CPU / $BASE_CPU" | bc)x its CPU time"
fi
if [ -n "$REAL" ]; then
  REAL_FILES=$(find "$REAL" -name '*.swift' -not -path '*/.build/*' -not -path '*/Pods/*' | wc -l)
  REAL_BYTES=$(find "$REAL" -name '*.swift' -not -path '*/.build/*' -not -path '*/Pods/*' -print0 | xargs -0 cat | wc -c)
  read -r REAL_WALL REAL_CPU < <(measure "$INTAKE" audit "$REAL" --format json)
  REAL_RATE=$(rate "$REAL_FILES" "$REAL_WALL")
  echo "real code:         ${REAL_WALL}s wall, ${REAL_CPU}s CPU for $REAL_FILES files ($((REAL_BYTES / 1024)) KiB)" \
    "= $REAL_RATE files/s wall, $(rate "$REAL_FILES" "$REAL_CPU") files/s of CPU, on one core"
  echo "target on real code: 2000 files/s -> $([ "$REAL_RATE" -ge 2000 ] && echo met || echo MISSED)"
  if [ -n "$BASELINE" ]; then
    read -r BASE_WALL BASE_CPU < <(measure "$BASELINE" audit "$REAL" --format json)
    echo "baseline on real code: ${BASE_WALL}s wall, ${BASE_CPU}s CPU = $(rate "$REAL_FILES" "$BASE_CPU") files/s of CPU;" \
      "this build takes $(echo "scale=2; $REAL_CPU / $BASE_CPU" | bc)x its CPU time"
  fi
fi

if [ -n "$SIZES" ]; then
  echo "large files (one file each, one run on core 0):"
  FIRST_RATE=""
  for mb in $SIZES; do
    rm -rf "$WORK/large" && mkdir -p "$WORK/large"
    python3 - "$WORK/large/Large.swift" "$mb" <<'PY'
import sys
path, mb = sys.argv[1], int(sys.argv[2])
block = """
  func load{i}(_ provider: NSItemProvider, results: [PHPickerResult]) {{
    let semaphore = DispatchSemaphore(value: 0)
    provider.loadObject(ofClass: UIImage.self) {{ _, _ in semaphore.signal() }}
    semaphore.wait()
    let ids{i} = results.compactMap(\\.assetIdentifier)
    UserDefaults.standard.set(ids{i}.joined(separator: ","), forKey: "k{i}")
    let label = "item \\(ids{i}.count) of \\("\\(results.count)") at \\(Date())"
    let text = "{filler}"
    print(label, text, UIImage(data: Data()) as Any)
  }}

  func wire{i}(_ asset: AVAsset) {{
    wireVideo(asset)
    print(asset.duration, asset.tracks(withMediaType: .audio).count)
  }}
"""
filler = "lorem ipsum " * 200
with open(path, "w") as out:
    out.write("import AVFoundation\nimport PhotosUI\nimport UIKit\n\nfinal class Large {\n")
    out.write("  func wireVideo(_ asset: AVAsset) {\n    print(asset.tracks(withMediaType: .video).count)\n  }\n")
    written, i = 0, 0
    while written < mb * 1_000_000:
        chunk = block.format(i=i, filler=filler)
        out.write(chunk)
        written += len(chunk)
        i += 1
    out.write("}\n")
PY
    BYTES_L=$(wc -c < "$WORK/large/Large.swift")
    LINE=$( { /usr/bin/time -f '%e %U %S %M' taskset -c 0 "$INTAKE" audit "$WORK/large" --format json >/dev/null || true; } 2>&1 | tail -1)
    read -r L_WALL L_USER L_SYS L_RSS <<<"$LINE"
    L_CPU=$(echo "$L_USER + $L_SYS" | bc)
    PER_MB=$(echo "scale=3; $L_CPU * 1000000 / $BYTES_L" | bc)
    [ -z "$FIRST_RATE" ] && FIRST_RATE=$PER_MB
    echo "  ${mb} MB: ${L_WALL}s wall, ${L_CPU}s CPU = ${PER_MB}s of CPU per MB" \
      "($(echo "scale=2; $PER_MB / $FIRST_RATE" | bc)x the first size's), peak $((L_RSS / 1024)) MB" \
      "= $(echo "scale=1; $L_RSS * 1024 / $BYTES_L" | bc)x the file"
  done
fi
