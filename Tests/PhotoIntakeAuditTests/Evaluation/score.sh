#!/usr/bin/env bash
# score.sh [INTAKE]   (run from anywhere)
# Scores `intake audit` against judgments.tsv: for each repository judged there, checks out the pinned
# commit (from $EVAL_MIRRORS/<owner>+<name>/repo if that git directory exists, else a blobless clone
# from GitHub into $EVAL_CACHE, default ~/.cache/intake-audit-eval), audits it on one core, and prints
# per rule and per set (tuning, held-out): recall (mistakes reported / mistakes) and the share of
# look-alike places reported, then the findings no judgment covers, to be judged and added.
# INTAKE defaults to the release build of Scripts/build-release.sh.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
INTAKE=${1:-$(cd "$ROOT" && Scripts/build-release.sh 2>/dev/null)}
CACHE=${EVAL_CACHE:-$HOME/.cache/intake-audit-eval}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/intake-audit-eval.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$CACHE"
# Only what the audit reads: large model and media files are often missing from mirrors.
# `git archive` fails on a pathspec that matches nothing, so list the paths first.
sources() { git "$@" ls-tree -r --name-only "$commit" | grep -E '\.(swift|plist|pbxproj|xcconfig)$' || true; }

grep -v '^#' "$HERE/judgments.tsv" | cut -f1,2 | sort -u | while IFS=$'\t' read -r repo commit; do
  slug=${repo/\//+}
  dest="$WORK/$slug"
  mkdir -p "$dest"
  mirror="${EVAL_MIRRORS:-/nonexistent}/$slug/repo"
  [ -d "$mirror/.git" ] && mirror="$mirror/.git"
  if [ -d "$mirror" ] && git --git-dir="$mirror" cat-file -e "$commit^{commit}" 2>/dev/null; then
    sources --git-dir="$mirror" | tr '\n' '\0' | xargs -0 git --git-dir="$mirror" archive "$commit" -- 2>/dev/null | tar -x -C "$dest"
  else
    if [ ! -d "$CACHE/$slug" ]; then
      git clone --quiet --filter=blob:none --no-checkout "https://github.com/$repo" "$CACHE/$slug"
    fi
    sources -C "$CACHE/$slug" | tr '\n' '\0' | xargs -0 git -C "$CACHE/$slug" archive "$commit" -- | tar -x -C "$dest"
  fi
  start=$(date +%s.%N)
  taskset -c 0 "$INTAKE" audit "$dest" --format json --fail-on error >"$WORK/$slug.json" 2>/dev/null || true
  end=$(date +%s.%N)
  files=$(find "$dest" -name '*.swift' -not -path '*/.build/*' -not -path '*/Pods/*' | wc -l)
  echo -e "$slug\t$files\t$(echo "$end - $start" | bc)" >>"$WORK/timing.tsv"
done

python3 - "$HERE/judgments.tsv" "$WORK" <<'PY'
import collections, json, os, sys
judgments, work = sys.argv[1], sys.argv[2]
places, current = {}, "tuning"
for line in open(judgments, encoding="utf-8"):
    line = line.rstrip("\n")
    if line.startswith("#set "):
        current = line.split()[1]
        continue
    if not line or line.startswith("#"):
        continue
    repo, commit, path, number, rule, verdict, why = line.split("\t")
    places[(repo.replace("/", "+"), path, int(number), rule)] = (verdict, current)
reported = set()
for name in os.listdir(work):
    if not name.endswith(".json"):
        continue
    slug = name[:-5]
    for finding in json.load(open(os.path.join(work, name), encoding="utf-8")):
        path = finding["file"].split(slug + "/", 1)[1]
        reported.add((slug, path, finding["line"], finding["rule"]))
table = collections.defaultdict(lambda: [0, 0, 0, 0])  # mistakes found, mistakes, look-alikes reported, look-alikes
for key, (verdict, which) in places.items():
    for group in ((which, key[3]), (which, "all rules"), ("all sets", key[3]), ("all sets", "all rules")):
        row = table[group]
        if verdict == "mistake":
            row[1] += 1
            row[0] += key in reported
        else:
            row[3] += 1
            row[2] += key in reported
print(f"{'set':10} {'rule':22} {'recall':>14} {'look-alikes reported':>22}")
for (which, rule), (found, mistakes, flagged, lookalikes) in sorted(table.items()):
    recall = f"{found}/{mistakes} = {100 * found / mistakes:.0f}%" if mistakes else "-"
    false = f"{flagged}/{lookalikes} = {100 * flagged / lookalikes:.0f}%" if lookalikes else "-"
    print(f"{which:10} {rule:22} {recall:>14} {false:>22}")
for key, (verdict, which) in sorted(places.items()):
    if verdict == "mistake" and key not in reported:
        print("missed:", *key)
    if verdict == "lookalike" and key in reported:
        print("reported look-alike:", *key)
unjudged = sorted(k for k in reported if k not in places and k[3] in {r for *_, r in places})
for key in unjudged:
    print("not judged yet:", *key)
files = seconds = 0
for line in open(os.path.join(work, "timing.tsv")):
    slug, count, elapsed = line.split("\t")
    files += int(count)
    seconds += float(elapsed)
print(f"{files} Swift files audited in {seconds:.2f} s on one core (process start included): {files / seconds:.0f} files/s")
PY
