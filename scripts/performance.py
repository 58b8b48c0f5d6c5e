#!/usr/bin/env python3
"""Measures StickerKit against its peers and writes the tables of docs/performance.md.

Every figure comes from `stickers bench` (the release build), which runs the peer in the same run,
taking turns with ours, so each ratio holds on the machine that measured it:

  decoding   stickers bench corpus-bench --threads 2 --repeat R --json   (libpng, giflib)
  render     stickers bench --render corpus/sample-pack --repeat R --json   (ImageMagick montage)
  fit        stickers bench --fit corpus/sample-pack --repeat 3 --json      (apngasm)
  preview    stickers bench --preview corpus/sample-pack/02-spinning-star.gif --seconds 8 --json   (chafa)
  review     stickers bench --review corpus/sample-pack --repeat 3 --json   (itself on one core and on two)
  fit-peer   stickers bench --fit-peer corpus-fit --json   (sticker-convert; only with --fit-peer:
             Benchmarks/make_fit_corpus.py draws corpus-fit/, scripts/setup-sticker-convert.sh
             installs the peer; a few minutes more)

The tables replace the block between `<!-- generated: performance -->` and
`<!-- end generated: performance -->` in docs/performance.md, headed by the date, the machine and
the commands. `make performance` runs it (it builds the release binary and the bench corpus first);
--print writes the block to stdout instead. It takes several minutes: run it on a quiet machine.
"""

import argparse
import datetime
import json
import os
import pathlib
import platform
import re
import subprocess
import sys

REPO = pathlib.Path(__file__).resolve().parent.parent
STICKERS = str(REPO / ".build/release/stickers")
STAR = "corpus/sample-pack/02-spinning-star.gif"


def bench(*arguments):
    command = [STICKERS, "bench", *arguments, "--json"]
    print("running:", " ".join(command[1:]), file=sys.stderr)
    output = subprocess.run(command, cwd=REPO, check=True, capture_output=True, text=True).stdout
    return json.loads(output)


def number(value, digits=0):
    return "-" if value is None else f"{value:,.{digits}f}"


def ratio(value):
    return "-" if value is None else f"{value:.2f}x"


def machine():
    model = "unknown processor"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = ""
    try:
        kib = int(re.search(r"MemTotal:\s+(\d+)", open("/proc/meminfo").read()).group(1))
        memory = f", {kib / 1048576:.0f} GiB"
    except (OSError, AttributeError):
        pass
    return f"{os.cpu_count()} cores of {model}{memory}, {platform.system()} {platform.release()}"


def decoding_tables(document):
    lines = ["### Decoding, one thread, against libpng and giflib", "",
             "| file | frames | ours MP/s | baseline | baseline MP/s | ours / baseline |", "|---|---|---|---|---|---|"]
    baseline = {"apng": "libpng", "png": "libpng", "gif": "giflib"}
    for entry in document["files"]:
        r = entry["result"]
        lines.append(f"| {r['name']} | {r['frames']} | {number(entry['megapixelsPerSecond'])} | "
                     f"{baseline.get(r['format'], '-')} | {number(entry.get('baselineMegapixelsPerSecond'))} | {ratio(entry.get('ratio'))} |")
    threads = document["threads"]
    lines += ["", f"### Decoding, {threads} threads against one", "",
              "| file | frames | speed-up | frames bit-identical to serial |", "|---|---|---|---|"]
    for entry in document["files"]:
        r = entry["result"]
        same = r.get("parallelIdentical")
        lines.append(f"| {r['name']} | {r['frames']} | {ratio(entry.get('speedUp'))} | "
                     f"{'-' if same is None else ('yes' if same else 'NO')} |")
    limits = document.get("inflateLimitsMBps")
    if limits:
        lines += ["", f"Bare inflate of the same PNG streams: libdeflate {number(limits['libdeflate'])} MB/s, "
                      f"zlib {number(limits['zlib'])} MB/s."]
    return lines


def render_table(document):
    return ["### Rendering the expanded browser at 3x, against ImageMagick montage", "",
            "| | ours ms | montage ms | montage / ours |", "|---|---|---|---|",
            f"| in process | {number(document['oursMilliseconds'], 1)} | {number(document.get('montageMilliseconds'), 1)} | {ratio(document.get('ratio'))} |",
            f"| whole process | {number(document.get('processMilliseconds'), 1)} | | {ratio(document.get('processRatio'))} |",
            "", f"{document['stickers']} stickers, {document['width']}x{document['height']} px; montage: "
                f"`{' '.join(document['montageCommand'][:1])} ...` (the same files, cells, spacing and background)."] + (
            [f"The pack's default conversation (`stickers transcript`, one iPhone 15 screen at 3x, PNG) in the same run: "
             f"{number(document['transcriptMilliseconds'], 1)} ms, {document['transcriptRatio']:.2f}x the browser's time (target: under 3x)."]
            if document.get("transcriptMilliseconds") else [])


def fit_table(document):
    lines = ["### fit's exact encoding, against apngasm on the same frames", "",
             "| sticker | frames | ours bytes | apngasm bytes | apngasm / ours | ours ms | apngasm ms | speed-up |",
             "|---|---|---|---|---|---|---|---|"]
    for s in document["stickers"]:
        lines.append(f"| {s['name']} | {s['frames']} | {number(s['oursBytes'])} | {number(s.get('apngasmBytes'))} | "
                     f"{ratio(s.get('sizeRatio'))} | {number(s['oursMilliseconds'])} | {number(s.get('apngasmMilliseconds'))} | "
                     f"{ratio(s.get('speedRatio'))} |")
    total_size = document["apngasmBytes"] / document["oursBytes"] if document.get("apngasmBytes") else None
    total_speed = document["apngasmMilliseconds"] / document["oursMilliseconds"] if document.get("apngasmMilliseconds") else None
    lines.append(f"| **total** | | **{number(document['oursBytes'])}** | **{number(document.get('apngasmBytes'))}** | "
                 f"**{ratio(total_size)}** | **{number(document['oursMilliseconds'])}** | **{number(document.get('apngasmMilliseconds'))}** | "
                 f"**{ratio(total_speed)}** |")
    lines += ["", f"Ours on {document['threads']} threads, apngasm on one; `stickers fit` on the whole pack as a process: "
                  f"{number(document.get('fitProcessMilliseconds'))} ms."]
    return lines


def preview_table(document):
    ours, chafa = document["ours"], document.get("chafa")
    lines = [f"### Terminal preview, against chafa ({document['columns']}x{document['rows']} cells, truecolor, "
             f"{number(document['seconds'])} s, {document['frames']} frames shown)", "",
             "| player | bytes | bytes / frame | CPU s / s of playback |", "|---|---|---|---|",
             f"| stickers preview | {number(ours['bytes'])} | {number(ours['bytesPerFrame'])} | {number(ours['cpuPerSecond'], 3)} |"]
    if chafa:
        lines.append(f"| chafa `{' '.join(chafa['command'][1:4])} ...` | {number(chafa['bytes'])} | "
                     f"{number(chafa['bytesPerFrame'])} | {number(chafa['cpuPerSecond'], 3)} |")
    graphics = document.get("graphics") or []
    if graphics:
        lines += ["", f"With each graphics protocol, the same {number(document['seconds'])} s and cells (ours `--graphics P "
                      "--play`: kitty and iTerm2 are sent the loop once and play it; chafa `-f P --animate on` and timg "
                      "`-pP` send every frame; timg on a pseudo-terminal reporting 10 x 20 pixel cells, where it animates):", "",
                  "| protocol | stickers bytes | CPU s / s | first image, ms | chafa bytes | CPU s / s | timg bytes | CPU s / s | "
                  "chafa / stickers bytes |", "|---|---|---|---|---|---|---|---|---|"]
        for entry in graphics:
            ours, chafa, timg = entry["ours"], entry.get("chafa"), entry.get("timg")
            ratio = f"{chafa['bytes'] / max(ours['bytes'], 1):.1f}x" if chafa else ""

            def peer_bytes(peer):
                # A peer that wrote no escape of the protocol drew text instead (Debian's timg has no sixel).
                if not peer:
                    return ""
                return number(peer["bytes"]) + ("" if peer.get("drewProtocol", True) else " (text, not this protocol)")
            lines.append(
                f"| {entry['name']} | {number(ours['bytes'])} | {number(ours['cpuPerSecond'], 3)} | "
                f"{number(entry['firstImageMilliseconds'])} | "
                f"{peer_bytes(chafa)} | {number(chafa['cpuPerSecond'], 3) if chafa else ''} | "
                f"{peer_bytes(timg)} | {number(timg['cpuPerSecond'], 3) if timg else ''} | {ratio} |")
    return lines


def review_table(document):
    return ["### stickers review, as a process", "",
            "| run | ms | target |", "|---|---|---|",
            f"| the sample pack, every core | {number(document['packMilliseconds'])} | under {number(document['packTargetMilliseconds'])} |",
            f"| {document['packs']} one-sticker packs, one core | {number(document['oneCoreMilliseconds'])} | |",
            f"| {document['packs']} one-sticker packs, two cores | {number(document['twoCoreMilliseconds'])} | |",
            f"| two cores over one | {ratio(document['speedup'])} | 1.7x or more |"]


def fit_peer_table(document):
    def psnr(value):
        return "exact" if value is None else f"{value:.1f} dB"

    def ssim(value):
        return "1" if value is None else f"{value:.4f}"

    def cell(output):
        if not output.get("produced"):
            return "failed", "", "", "", ""
        return (f"{output['bytes']:,}", psnr(output.get("psnr")), ssim(output.get("ssim")),
                f"{output.get('frames', '-')} at {output.get('framesPerSecond') or 0:.1f} fps",
                f"{output.get('loopSeconds') or 0:.2f} s")
    lines = [f"### fit's lossy search, against sticker-convert {document.get('peerVersion') or ''} "
             f"(`--preset {document['peerPreset']}`) on the same inputs", "",
             "| sticker | input | stickers fit: bytes | PSNR | SSIM | frames | loop | peak memory | time; `--strict` | sticker-convert: bytes | PSNR | SSIM | frames | loop |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]

    def memory(output):
        peak, scaled = output.get("peakResidentBytes"), output.get("scaledFramesBytes")
        if not peak:
            return ""
        return f"{peak / 1e6:.0f} MB" + (f" ({peak / scaled:.1f}x)" if scaled else "")

    def times(output):
        made, strict = output.get("aloneSeconds"), output.get("strictSeconds")
        if made is None or strict is None:
            return ""
        verdict = "refused" if output.get("strictRefused") else "made"
        return f"{made:.1f} s; {verdict} in {strict:.1f} s ({strict / made:.1f}x)"
    for entry in document["stickers"]:
        source = entry["input"]
        ours, peer = cell(entry["ours"]), cell(entry["peer"])
        lines.append(f"| {entry['name']} | {source.get('frames', '-')} frames, {source.get('loopSeconds') or 0:.2f} s | "
                     + " | ".join(ours) + f" | {memory(entry['ours'])} | {times(entry['ours'])} | " + " | ".join(peer) + " |")
    ours, peer = document["ours"], document["peer"]
    lines += ["", f"Made within {document['maxBytes']:,} bytes: stickers fit {ours['produced']} of {len(document['stickers'])}, "
                  f"sticker-convert {peer['produced']}. Whole runs: stickers fit {ours['wallSeconds']:.1f} s, "
                  f"sticker-convert {peer['wallSeconds']:.1f} s (sticker-convert / ours: {document['speedRatio']:.2f}x). "
                  "PSNR and SSIM: premultiplied RGBA against each input scaled to 408 px as fit scales it, at every input frame's "
                  "start time (a shorter loop repeats, so a speed-up counts as error). Peak memory: `stickers fit` on that "
                  "sticker alone (`--dry-run`), its peak resident size, and in brackets over the input's frames scaled to "
                  "408 x 408 (4 bytes a pixel). Time: its report's seconds alone, then under `--strict` (a sticker under 30 dB or SSIM "
                  "0.90 is refused, naming the options that make it, each proven by its own fit) and that over the first. "
                  "A refused sticker names the options that make it, each with its file's figures."]
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # 200 decodes are 20 turns of 10 (stickers bench), so the medians, the two-thread speed-up's
    # above all, hold on a machine whose cores are now and then taken by something else.
    parser.add_argument("--repeat", type=int, default=200, help="decodes per file and decoder (default 200)")
    parser.add_argument("--print", action="store_true", help="print the block instead of writing docs/performance.md")
    parser.add_argument("--fit-peer", action="store_true", help="also compare fit with sticker-convert on corpus-fit/")
    options = parser.parse_args()

    decoding = bench("corpus-bench", "--threads", "2", "--repeat", str(options.repeat))
    render = bench("--render", "corpus/sample-pack", "--repeat", "20")
    fit = bench("--fit", "corpus/sample-pack", "--repeat", "3")
    preview = bench("--preview", STAR, "--seconds", "8", "--repeat", "3")
    review = bench("--review", "corpus/sample-pack", "--repeat", "3")
    fit_peer = None
    if options.fit_peer:
        if not (REPO / "corpus-fit").is_dir():
            subprocess.run([sys.executable, str(REPO / "Benchmarks/make_fit_corpus.py"), str(REPO / "corpus-fit")], check=True,
                           stdout=subprocess.DEVNULL)
        fit_peer = bench("--fit-peer", "corpus-fit")

    today = datetime.date.today().isoformat()
    flags = f"--repeat {options.repeat}" + (" --fit-peer" if options.fit_peer else "")
    block = [f"Measured {today} on {machine()}, by `scripts/performance.py {flags}`"
             f" (`make performance`), release build, each table from one `stickers bench` run:", ""]
    block += decoding_tables(decoding) + [""] + render_table(render) + [""] + fit_table(fit) + [""] + preview_table(preview)
    block += [""] + review_table(review)
    if fit_peer:
        block += [""] + fit_peer_table(fit_peer)
    text = "\n".join(block) + "\n"
    if options.print:
        sys.stdout.write(text)
        return
    path = REPO / "docs/performance.md"
    document = path.read_text()
    pattern = re.compile(r"(<!-- generated: performance -->\n).*?(<!-- end generated: performance -->\n)", re.S)
    if not pattern.search(document):
        sys.exit("docs/performance.md has no generated: performance block")
    path.write_text(pattern.sub(lambda m: m.group(1) + text + m.group(2), document))
    print(f"updated {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
