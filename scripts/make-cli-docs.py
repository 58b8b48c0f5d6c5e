#!/usr/bin/env python3
"""Regenerates the generated blocks of docs/cli.md from the commands' own help.

docs/cli.md is hand-written except between marker lines of the form

    <!-- generated: COMMAND -->
    ...
    <!-- end generated: COMMAND -->

Each such block is rewritten from `stickers --experimental-dump-help` (swift-argument-parser's
JSON description of every command): the command's abstract, its usage line, its discussion and
a table of every argument, option and flag with its value, default and help. Everything outside
the markers is kept as written (examples, exit codes, output formats, JSON schemas).

    scripts/make-cli-docs.py [--stickers PATH] [--check] [--docs docs/cli.md]

--check writes nothing and exits 1 when docs/cli.md differs from what the help describes, or when a
command has no block (the test suite runs it this way, so the reference cannot drift from the code).
"""

import argparse
import difflib
import json
import pathlib
import re
import subprocess
import sys

REPO = pathlib.Path(__file__).resolve().parent.parent
MARKER = re.compile(r"^<!-- generated: ([a-z-]+) -->\n(.*?)^<!-- end generated: \1 -->\n", re.M | re.S)
# Shown by every command; described once at the top of cli.md instead of in every table.
COMMON_FLAGS = {"help", "version"}


def option_name(argument):
    """`--name`, `-o, --output` or `<value>` for a positional."""
    if argument["kind"] == "positional":
        return f"`<{argument['valueName']}>`" + (" ..." if argument.get("isRepeating") else "")
    names = sorted(argument.get("names", []), key=lambda n: n["kind"] != "short")
    spelled = [("-" if n["kind"] == "short" else "--") + n["name"] for n in names]
    return ", ".join(f"`{s}`" for s in spelled)


def value_of(argument):
    if argument["kind"] != "option":
        return ""
    values = argument.get("allValues")
    if values:
        return " \\| ".join(f"`{v}`" for v in values)
    return f"`<{argument['valueName']}>`"


def escape(text):
    return text.replace("|", "\\|").replace("\n", " ")


def documented(command):
    """The arguments a command's help shows, less the --help and --version flags (described once;
    `xcode` has a --version option of its own, the app's version, which is documented)."""
    return [a for a in command.get("arguments", [])
            if a.get("shouldDisplay", True)
            and not (a.get("kind") == "flag" and a.get("preferredName", {}).get("name") in COMMON_FLAGS)]


def usage(command):
    parts = [f"stickers {command['commandName']}"]
    for argument in documented(command):
        if argument["kind"] == "positional":
            word = f"<{argument['valueName']}>" + (" ..." if argument.get("isRepeating") else "")
        else:
            name = argument["preferredName"]
            word = ("-" if name["kind"] == "short" else "--") + name["name"]
            if argument["kind"] == "option":
                word += f" <{argument['valueName']}>"
            if argument.get("isRepeating"):
                word += " ..."
        parts.append(f"[{word}]" if argument.get("isOptional") else word)
    return " ".join(parts)


def block(command):
    """The generated Markdown for one subcommand."""
    lines = [command.get("abstract", ""), "", "```", usage(command), "```", ""]
    discussion = command.get("discussion", "").strip()
    if discussion:
        lines += [discussion, ""]
    lines += ["| Argument | Value | Default | Description |", "|---|---|---|---|"]
    for argument in documented(command):
        default = argument.get("defaultValue")
        section = argument.get("sectionTitle")
        description = escape(argument.get("abstract", ""))
        if section:
            description = f"{section}: {description}"
        if argument.get("isRepeating") and argument["kind"] != "positional":
            description += " (repeatable)"
        lines.append(f"| {option_name(argument)} | {value_of(argument)} | "
                     f"{'`' + escape(default) + '`' if default else ''} | {description} |")
    return "\n".join(lines) + "\n"


def render(document, commands):
    by_name = {c["commandName"]: c for c in commands}
    missing = [name for name in by_name if not re.search(rf"^<!-- generated: {name} -->$", document, re.M)]
    if missing:
        sys.exit(f"docs/cli.md has no generated block for: {', '.join(missing)}")

    def replace(match):
        name = match.group(1)
        if name not in by_name:
            sys.exit(f"docs/cli.md has a block for '{name}', which is not a command")
        return f"<!-- generated: {name} -->\n{block(by_name[name])}<!-- end generated: {name} -->\n"

    return MARKER.sub(replace, document)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stickers", default=str(REPO / ".build/release/stickers"), help="the stickers executable")
    parser.add_argument("--docs", default=str(REPO / "docs/cli.md"))
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is not up to date")
    options = parser.parse_args()

    dump = json.loads(subprocess.run([options.stickers, "--experimental-dump-help"], check=True,
                                     capture_output=True, text=True).stdout)
    commands = [c for c in dump["command"]["subcommands"] if c["commandName"] != "help"]
    path = pathlib.Path(options.docs)
    current = path.read_text()
    wanted = render(current, commands)
    if options.check:
        if wanted != current:
            sys.stdout.writelines(difflib.unified_diff(current.splitlines(True), wanted.splitlines(True),
                                                       str(path), "generated"))
            sys.exit(f"{path} is out of date: run scripts/make-cli-docs.py")
        return
    if wanted != current:
        path.write_text(wanted)
        print(f"updated {path}")


if __name__ == "__main__":
    main()
