"""Runs a command and writes its peak resident memory, measured apart from the caller's.

A child spawned straight from a large process (a test runner) reports that process's
high-water mark as its own on Linux, since posix_spawn shares the parent's memory until exec;
this small interpreter stands in between. Usage: peak_rss.py REPORT COMMAND [ARGS...]
REPORT receives "<peak KiB> <exit status>", the status negative when a signal ended it.

A hang fails without timing anything that depends on the machine's speed or load: the child
may use 60 s of CPU (SIGXCPU ends it past that; a bomb needs well under a second), and a child
that blocks without using CPU is killed after 600 s, a guard no healthy run comes near.
"""
import resource
import subprocess
import sys

report, argv = sys.argv[1], sys.argv[2:]
def limit_cpu():
    resource.setrlimit(resource.RLIMIT_CPU, (60, 60))


try:
    status = subprocess.call(argv, preexec_fn=limit_cpu, timeout=600)
except subprocess.TimeoutExpired:
    status = -9
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
with open(report, "w") as out:
    out.write(f"{peak} {status}\n")
sys.exit(0)
