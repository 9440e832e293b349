#!/usr/bin/env python3
"""measure.py LABEL -- COMMAND...   runs COMMAND, prints 'LABEL wall_seconds peak_rss_kib' (stdout), nothing else.

Peak RSS is the child's ru_maxrss (getrusage RUSAGE_CHILDREN), i.e. of the largest process in the command
(for a shell pipeline, of its largest member). Used by the Benchmarks/*.sh scripts."""
import os, resource, subprocess, sys, time

label = sys.argv[1]
command = sys.argv[sys.argv.index("--") + 1:]
start = time.perf_counter()
status = subprocess.call(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
wall = time.perf_counter() - start
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
if status != 0:
    print(f"{label}: command failed with status {status}: {' '.join(command)}", file=sys.stderr)
    sys.exit(status)
print(f"{label} {wall:.4f} {rss}")
