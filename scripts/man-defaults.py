#!/usr/bin/env python3
"""Adds each option's default to the man pages generate-manual writes.

swift-argument-parser's generate-manual leaves out the "(default: X)" that `--help` prints, so a
man page did not say that --max-bytes is 500000. This reads each command's defaults from the
program itself (`stickers COMMAND --experimental-dump-help`) and appends them, as `--help` does,
to the description of the option in the page (stickers.fit.1 for `stickers fit`).

Usage: scripts/man-defaults.py STICKERS MAN_DIR
"""

import json
import pathlib
import subprocess
import sys


def defaults(stickers, command):
    """The long option names of `command` (a list of subcommand names) with their defaults."""
    dump = subprocess.run(
        [stickers, *command, "--experimental-dump-help"], check=True, capture_output=True, text=True, timeout=60
    ).stdout
    found = {}
    for argument in json.loads(dump)["command"].get("arguments", []):
        value = argument.get("defaultValue")
        # A hidden option has no description in the page.
        if argument.get("kind") != "option" or value in (None, "") or not argument.get("shouldDisplay", True):
            continue
        for name in argument.get("names") or []:
            if name["kind"] == "long":
                found[name["name"]] = value
    return found


def option_name(line):
    """The long option an `.It Fl ...` line of mdoc starts, or None."""
    words = line.split()
    if not words or words[0] != ".It" or "Fl" not in words:
        return None
    for word in words:
        if word.startswith("-") and len(word) > 1:
            return word.lstrip("-")
    return None


def add_defaults(page, known):
    """The page's lines with " (default: X)" after the description of each option in `known`,
    and the options whose default found no description (none, for a page as generate-manual
    writes it)."""
    lines = page.split("\n")
    out = []
    placed = set()
    pending = None  # the option being described, when it has a default
    last_text = None  # the index in `out` of that description's last line of text
    for line in lines:
        if line.startswith(".It") or line.startswith(".El") or line.startswith(".Sh"):
            if pending is not None and last_text is not None:
                # A backslash is roff's escape: written as \e it prints as itself.
                out[last_text] += " (default: " + known[pending].replace("\\", "\\e") + ")"
                placed.add(pending)
            name = option_name(line)
            pending = name if name in known else None
            last_text = None
        elif not line.startswith(".") and not line.startswith("'"):
            last_text = len(out)
        out.append(line)
    return "\n".join(out), sorted(set(known) - placed)


def main():
    stickers, folder = sys.argv[1], pathlib.Path(sys.argv[2])
    for path in sorted(folder.glob("*.1")):
        command = path.stem.split(".")[1:]  # stickers.fit -> ["fit"]
        if command == ["help"]:
            continue
        known = defaults(stickers, command)
        if known:
            page, missed = add_defaults(path.read_text(), known)
            if missed:
                sys.exit(f"{path}: no description found for {', '.join(missed)}; the page was not changed")
            path.write_text(page)


if __name__ == "__main__":
    main()
