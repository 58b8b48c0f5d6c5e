"""Runs a command and writes its peak resident memory, measured apart from the caller's.

A child spawned straight from a large process (a test runner) reports that process's
high-water mark as its own on Linux, since posix_spawn shares the parent's memory until exec;
this small interpreter stands in between. Usage: peak_rss.py REPORT COMMAND [ARGS...]
REPORT receives "<peak KiB> <exit status>", the status negative when a signal ended it.
"""
import resource
import subprocess
import sys

report, argv = sys.argv[1], sys.argv[2:]
status = subprocess.call(argv)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
with open(report, "w") as out:
    out.write(f"{peak} {status}\n")
sys.exit(0)
