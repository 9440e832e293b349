#!/usr/bin/env python3
"""snippets.py ROOT OUT

Extracts every ```swift block of ROOT/README.md and of the DocC catalogs (ROOT/Sources/*/*.docc/**/*.md) and
writes the package that compiles them, as a user of PhotoIntake would: OUT/Package.swift depends on ROOT by
path, so only public API is visible; Sources/Snippets/ holds one file per block plus Context.swift, the
hidden prelude that declares what the fragments take for granted (a library, a path, the app's own helpers).

The fence's info string says how a block is wrapped, so the reader still sees the short form:
  ```swift            a fragment: the body of an `async throws` function. Its own `import` lines are moved to
                      the top of the file; without any, it imports Foundation and the four portable modules.
  ```swift continued  more of the fragment before it in the same Markdown file (an article that builds one
                      example step by step): both are compiled as one function, each block at its own lines.
  ```swift file       a whole source file (declarations at the top level), compiled as it stands.
  ```swift manifest   arguments of a Package.swift's `Package(name:…)`, type-checked against PackageDescription.
  ```swift ios        Apple-only code, a whole file for ../shared/tools/ios-typecheck. A block that imports an
                      Apple-only module (SwiftUI, PhotosUI, PhotoIntakeUI…) is one without saying so.
The kind can also be given by an HTML comment on the line before the fence, `<!-- snippet: continued -->`, which
DocC does not show and which keeps the fence a plain ```swift that its renderer highlights.
Each generated file starts its block with `#sourceLocation`, so the compiler names the Markdown file and line.

Also writes OUT/manifest/ (one file per manifest block), OUT/ios/ (one file per Apple-only block) and
OUT/blocks.tsv: kind, Markdown file, line, generated file.
"""

import os
import re
import sys

PORTABLE = ["PhotoMetadata", "PhotoIntake", "PhotoIntakeTesting", "PhotoIntakeAudit"]
KINDS = {"fragment", "continued", "file", "manifest", "ios"}
APPLE_ONLY = {"SwiftUI", "UIKit", "AppKit", "PhotosUI", "Photos", "AVFoundation", "AVKit", "ImageIO", "CryptoKit",
              "CoreImage", "CoreGraphics", "SwiftData", "PhotoIntakeUI"}


def markdown_files(root):
    files = [os.path.join(root, "README.md")]
    sources = os.path.join(root, "Sources")
    for target in sorted(os.listdir(sources)):
        for entry in sorted(os.listdir(os.path.join(sources, target))):
            if entry.endswith(".docc"):
                for folder, _, names in sorted(os.walk(os.path.join(sources, target, entry))):
                    files += [os.path.join(folder, n) for n in sorted(names) if n.endswith(".md")]
    return files


def swift_blocks(path):
    """(kind, line of the block's first code line, code lines) for each ```swift block."""
    blocks, current, fence, previous = [], None, None, ""
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, start=1):
            stripped = line.rstrip("\n")
            if current is None:
                m = re.match(r"^(\s*)(`{3,})\s*swift\b(.*)$", stripped)
                if m:
                    words = m.group(3).split()
                    comment = re.match(r"^\s*<!--\s*snippet:\s*(\w+)\s*-->\s*$", previous)
                    kind = words[0] if words else comment.group(1) if comment else "fragment"
                    if kind not in KINDS:
                        sys.exit(f"{path}:{number}: unknown snippet kind '{kind}' (use one of {sorted(KINDS)})")
                    current, fence = (kind, number + 1, [], len(m.group(1))), m.group(2)
                elif re.match(r"^\s*`{3,}", stripped):
                    current, fence = ("other", number + 1, [], 0), re.match(r"^\s*(`{3,})", stripped).group(1)
            elif stripped.strip().startswith(fence) and stripped.strip().strip("`") == "":
                if current[0] != "other":
                    indent = current[3]
                    blocks.append((current[0], current[1], [l[indent:] if l[:indent].isspace() else l for l in current[2]]))
                current = None
            else:
                current[2].append(stripped)
            previous = stripped
    if current is not None:
        sys.exit(f"{path}:{current[1] - 1}: code block is never closed")
    return blocks


def generated(kind, source, line, code, more=()):
    """The file for one block; `more` holds the (line, code) of the blocks that continue a fragment."""
    location = f'#sourceLocation(file: "{source}", line: {line})'
    if kind in ("file", "ios"):
        return "\n".join([location] + code + ["#sourceLocation()", ""])
    if kind == "manifest":
        # A line directive cannot stand inside an argument list: the scaffolding's own line is the fence's.
        fence = f'#sourceLocation(file: "{source}", line: {line - 1})'
        return "\n".join(
            ["import PackageDescription", "", fence, 'let package = Package(name: "MyApp",'] + code
            + [")", "#sourceLocation()", ""])
    imports = [l.strip() for l in code if re.match(r"^\s*(@testable\s+)?import\s+\w", l)]
    if any(i.startswith("@testable") for i in imports):
        sys.exit(f"{source}:{line}: a snippet uses @testable import; users cannot")
    body = ["" if re.match(r"^\s*import\s+\w", l) else "  " + l if l else "" for l in code]
    for more_line, more_code in more:
        body += [f'#sourceLocation(file: "{source}", line: {more_line})'] + ["  " + l if l else "" for l in more_code]
    header = imports or ["import Foundation"] + [f"import {m}" for m in PORTABLE]
    return "\n".join(header + ["", "func snippet() async throws {", location] + body + ["#sourceLocation()", "}", ""])


def main():
    root, out = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    sources = os.path.join(out, "Sources", "Snippets")
    for folder in (sources, os.path.join(out, "manifest"), os.path.join(out, "ios")):
        os.makedirs(folder, exist_ok=True)
    rows, written = [], {os.path.join(sources, "Context.swift")}
    for path in markdown_files(root):
        relative = os.path.relpath(path, root)
        stem = re.sub(r"[^A-Za-z0-9]+", "_", relative)
        groups = []
        for kind, line, code in swift_blocks(path):
            if kind == "continued":
                if not groups or groups[-1][0] != "fragment":
                    sys.exit(f"{relative}:{line - 1}: a 'continued' block must follow a fragment")
                groups[-1][3].append((line, code))
                continue
            groups.append([kind, line, code, []])
        for kind, line, code, more in groups:
            imported = {m.group(1) for m in (re.match(r"^\s*import\s+(\w+)", l) for l in code) if m}
            if kind != "manifest" and imported & APPLE_ONLY:
                kind = "ios"
            folder = {"manifest": "manifest", "ios": "ios"}.get(kind, os.path.join("Sources", "Snippets"))
            name = os.path.join(folder, f"{stem}_{line}.swift")
            # The file's own name and a unique function name keep the blocks independent of each other.
            text = generated(kind, path, line, code, more).replace("func snippet()", f"func snippet_{stem}_{line}()")
            write(os.path.join(out, name), text)
            written.add(os.path.join(out, name))
            rows.append(f"{kind}\t{relative}\t{line}\t{name}")
            rows += [f"continued\t{relative}\t{more_line}\t{name}" for more_line, _ in more]
    context = os.path.join(os.path.dirname(os.path.abspath(__file__)), "snippets-context.swift")
    with open(context, encoding="utf-8") as f:
        write(os.path.join(sources, "Context.swift"), f.read())
    # Blocks that are gone (or moved to another line) leave no stale file behind.
    for folder in (sources, os.path.join(out, "manifest"), os.path.join(out, "ios")):
        for name in os.listdir(folder):
            if name.endswith(".swift") and os.path.join(folder, name) not in written:
                os.remove(os.path.join(folder, name))
    identity = os.path.basename(root).lower()
    products = ", ".join(f'.product(name: "{m}", package: "{identity}")' for m in PORTABLE)
    # The TestHooks trait, as a test target of an app would ask for it: the DocC blocks show FaultInjection.
    write(os.path.join(out, "Package.swift"), f"""// swift-tools-version: 6.1
// Generated by Scripts/snippets.py: the README's and the DocC catalogs' Swift blocks, built as a user would.
import PackageDescription

let package = Package(
  name: "Snippets",
  platforms: [.macOS(.v13)],
  dependencies: [.package(path: "{root}", traits: ["TestHooks"])],
  targets: [.target(name: "Snippets", dependencies: [{products}])]
)
""")
    write(os.path.join(out, "blocks.tsv"), "\n".join(rows) + "\n")


def write(path, text):
    """Writes only when the text changed, so an unchanged block is not rebuilt."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
