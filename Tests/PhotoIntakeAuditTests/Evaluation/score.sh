#!/usr/bin/env bash
# score.sh [--set NAME] [INTAKE]   (run from anywhere)
# Scores `intake audit` against judgments.tsv. For each repository of the chosen sets (`#repo` lines; default:
# all), checks out the pinned commit (from $EVAL_MIRRORS/<owner>+<name>/repo if that git directory exists, else a
# blobless clone from GitHub into $EVAL_CACHE, default ~/.cache/intake-audit-eval), audits it on one core, and
# prints per set and rule:
#   recall     mistakes reported / mistakes judged
#   precision  reports on judged mistakes / reports on judged places (mistakes and look-alikes)
#   look-alike reports on places judged harmless, and how many look-alikes were judged
#   severity   found mistakes whose reported severity matches the judged one
# then every missed mistake, every reported look-alike and every report no judgment covers (to be judged and
# added; they count in neither figure until then), and the repositories that could be neither found in the mirrors
# nor cloned (left out of every figure). A report is one (file, line, rule); a mistake whose line
# column lists several lines is found by a report on any of them. `#group NAME` lines inside a set (reset by
# `#set`) add an "all rules" row per group, e.g. `held-out:round3`, for sets judged at different times.
# INTAKE defaults to the release build of Scripts/build-release.sh.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
ONLY=""
if [ "${1:-}" = "--set" ]; then
  ONLY=$2
  shift 2
fi
INTAKE=${1:-$(cd "$ROOT" && Scripts/build-release.sh 2>/dev/null)}
CACHE=${EVAL_CACHE:-$HOME/.cache/intake-audit-eval}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/intake-audit-eval.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$CACHE"
# Only what the audit reads (storyboards, xibs, Core Data models and Objective-C files name Swift types the
# system makes): large model and media files are often missing from mirrors.
# `git archive` fails on a pathspec that matches nothing, and on a blob the snapshot lacks (files of 4 MiB and
# more, such as a Pods project file), so list the paths whose blobs are present first.
sources() {
  git "$@" ls-tree -r "$commit" | awk -F'\t' '$2 ~ /\.(swift|plist|pbxproj|xcconfig|podspec)$/ || (($2 ~ /\.(storyboard|xib|m|mm|h)$/ || $2 ~ /\.xcdatamodel\/contents$/) \
    && $2 !~ /(^|\/)(Pods|Carthage|DerivedData|\.build)\//) { split($1, m, " "); print m[3] "\t" $2 }' \
    >"$WORK/list"
  cut -f1 "$WORK/list" | git "$@" cat-file --batch-check='%(objecttype)' | paste - "$WORK/list" |
    awk -F'\t' '$1 == "blob" { print $3 }'
}

awk -F'\t' -v only="$ONLY" '/^#set /{set=$0; sub(/^#set /, "", set)} /^#repo\t/ && (only == "" || only == set){print $2"\t"$3}' \
  "$HERE/judgments.tsv" | sort -u | while IFS=$'\t' read -r repo commit; do
  slug=${repo/\//+}
  dest="$WORK/$slug"
  mkdir -p "$dest"
  mirror="${EVAL_MIRRORS:-/nonexistent}/$slug/repo"
  [ -d "$mirror/.git" ] && mirror="$mirror/.git"
  if [ -d "$mirror" ] && git --git-dir="$mirror" cat-file -e "$commit^{commit}" 2>/dev/null; then
    sources --git-dir="$mirror" | tr '\n' '\0' | xargs -0 git --git-dir="$mirror" archive "$commit" -- 2>/dev/null | tar -x -i -C "$dest"
  else
    if [ ! -d "$CACHE/$slug" ] &&
      ! git clone --quiet --filter=blob:none --no-checkout "https://github.com/$repo" "$CACHE/$slug" 2>/dev/null; then
      # Neither a mirror nor a clone: the repository is left out of every figure, and named at the end.
      rm -rf "$CACHE/$slug" "$dest"
      echo "$slug" >>"$WORK/skipped"
      continue
    fi
    sources -C "$CACHE/$slug" | tr '\n' '\0' | xargs -0 git -C "$CACHE/$slug" archive "$commit" -- | tar -x -i -C "$dest"
  fi
  start=$(date +%s.%N)
  taskset -c 0 "$INTAKE" audit "$dest" --format json --fail-on error >"$WORK/$slug.json" 2>/dev/null || true
  end=$(date +%s.%N)
  files=$(find "$dest" -name '*.swift' -not -path '*/.build/*' -not -path '*/Pods/*' | wc -l)
  echo -e "$slug\t$files\t$(echo "$end - $start" | bc)" >>"$WORK/timing.tsv"
done

python3 - "$HERE/judgments.tsv" "$WORK" "$ONLY" <<'PY'
import collections, json, os, sys
judgments, work, only = sys.argv[1], sys.argv[2], sys.argv[3]
places = []  # (set, slug, path, lines, rule, verdict, severity)
repo_set = {}
repo_group = {}
current = "tuning"
group = ""
skipped_file = os.path.join(work, "skipped")
skipped = set(open(skipped_file).read().split()) if os.path.exists(skipped_file) else set()
for line in open(judgments, encoding="utf-8"):
    line = line.rstrip("\n")
    if line.startswith("#set "):
        current = line.split()[1]
        group = ""
        continue
    if line.startswith("#group "):
        group = line.split()[1]
        continue
    if line.startswith("#repo\t"):
        repo_set[line.split("\t")[1].replace("/", "+")] = current
        repo_group[line.split("\t")[1].replace("/", "+")] = group
        continue
    if not line or line.startswith("#"):
        continue
    fields = line.split("\t")
    repo, commit, path, numbers, rule, verdict, why = fields[:7]
    severity = fields[7] if len(fields) > 7 else "-"
    if only and current != only:
        continue
    if repo.replace("/", "+") in skipped:
        continue
    lines = {int(n) for n in numbers.split(",")}
    places.append((current, repo.replace("/", "+"), path, lines, rule, verdict, severity))
judged = collections.defaultdict(list)  # (slug, path, line, rule) -> places covering it
for place in places:
    for number in place[3]:
        judged[(place[1], place[2], number, place[4])].append(place)
reported = {}  # (slug, path, line, rule) -> severity
for name in sorted(os.listdir(work)):
    if not name.endswith(".json"):
        continue
    slug = name[:-5]
    for finding in json.load(open(os.path.join(work, name), encoding="utf-8")):
        path = finding["file"].split(slug + "/", 1)[1]
        reported[(slug, path, finding["line"], finding["rule"])] = finding["severity"]
# rows: [found, mistakes, severity agreed, reports on mistakes, reports on look-alikes, look-alikes judged]
table = collections.defaultdict(lambda: [0, 0, 0, 0, 0, 0])
def rows(which, rule, slug):
    both = (table[(which, rule)], table[(which, "all rules")])
    return both + ((table[(which + ":" + repo_group[slug], "all rules")],) if repo_group.get(slug) else ())
missed, flagged = [], []
for place in places:
    which, slug, path, lines, rule, verdict, severity = place
    hits = [reported[(slug, path, n, rule)] for n in sorted(lines) if (slug, path, n, rule) in reported]
    for row in rows(which, rule, slug):
        if verdict == "mistake":
            row[1] += 1
            if hits:
                row[0] += 1
                row[2] += severity in hits
        elif verdict == "lookalike":
            row[5] += 1
    if verdict == "mistake" and not hits:
        missed.append(place)
unjudged = []
for key, severity in sorted(reported.items()):
    slug, path, number, rule = key
    which = repo_set.get(slug, "tuning")
    if only and which != only:
        continue
    verdicts = {p[5] for p in judged.get(key, [])}
    if "mistake" in verdicts:
        for row in rows(which, rule, slug):
            row[3] += 1
    elif "lookalike" in verdicts:
        for row in rows(which, rule, slug):
            row[4] += 1
        flagged.append((which, key))
    elif not verdicts:
        unjudged.append((which, key))
def ratio(a, b):
    return f"{a}/{b} = {100 * a / b:.0f}%" if b else "-"
print(f"{'set':9} {'rule':27} {'recall':>15} {'precision':>15} {'look-alike reports':>19} {'severity':>9}")
for (which, rule), (found, mistakes, agreed, on_mistakes, on_lookalikes, lookalikes) in sorted(table.items()):
    precision = ratio(on_mistakes, on_mistakes + on_lookalikes)
    print(f"{which:9} {rule:27} {ratio(found, mistakes):>15} {precision:>15} "
          f"{f'{on_lookalikes} of {lookalikes}':>19} {f'{agreed}/{found}':>9}")
for which, slug, path, lines, rule, verdict, severity in missed:
    print("missed:", which, slug, path, ",".join(map(str, sorted(lines))), rule)
for which, key in flagged:
    print("reported look-alike:", which, *key)
for which, key in unjudged:
    print("not judged yet:", which, *key, reported[key])
for slug in sorted(skipped):
    print("skipped (no mirror, no clone; left out of every figure):", slug)
files = seconds = 0
for line in open(os.path.join(work, "timing.tsv")):
    slug, count, elapsed = line.split("\t")
    files += int(count)
    seconds += float(elapsed)
print(f"{files} Swift files audited in {seconds:.2f} s on one core (process start included): {files / seconds:.0f} files/s")
PY
