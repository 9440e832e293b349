#!/usr/bin/env python3
"""undocumented.py GRAPHS...

Lists the public symbols of the given symbol graphs (files, or folders of *.symbols.json) that have no doc
comment, as `file:line: kind Module.Path`, and exits 1 if there is any.

Not counted, because there is no declaration in our sources to document: what the compiler synthesizes (a
Hashable enum's hashValue, a Codable type's init(from:)…, symbols without a source location) and default
implementations a type inherits from a protocol extension. An implementation of a protocol requirement is
documented when the requirement is: symbol graphs carry its documentation, and DocC shows it.
"""

import glob
import json
import os
import sys


def graphs(args):
    for arg in args:
        if os.path.isdir(arg):
            yield from sorted(glob.glob(os.path.join(arg, "**", "*.symbols.json"), recursive=True))
        else:
            yield arg


def main():
    missing, total = [], 0
    for path in graphs(sys.argv[1:]):
        graph = json.load(open(path, encoding="utf-8"))
        module = graph["module"]["name"]
        for symbol in graph["symbols"]:
            if "::SYNTHESIZED::" in symbol["identifier"]["precise"] or "location" not in symbol:
                continue
            total += 1
            comment = symbol.get("docComment", {}).get("lines", [])
            if any(line["text"].strip() for line in comment):
                continue
            uri = symbol["location"]["uri"].removeprefix("file://")
            line = symbol["location"]["position"]["line"] + 1
            name = ".".join(symbol["pathComponents"])
            missing.append(f"{os.path.relpath(uri)}:{line}: {symbol['kind']['identifier']} {module}.{name}")
    for entry in sorted(set(missing)):
        print(entry)
    print(f"undocumented public symbols: {len(set(missing))} of {total}", file=sys.stderr)
    sys.exit(1 if missing else 0)


if __name__ == "__main__":
    main()
