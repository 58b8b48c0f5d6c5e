#!/usr/bin/env python3
"""What docs/formats.md says a (damaged) Lottie JSON document decodes to, by Python's json.

Usage: lottie_verdicts.py ORIGINAL DOCS OUT

ORIGINAL is the undamaged document; DOCS holds one document a line, hex-encoded. Writes one
verdict a line to OUT:
  malformed         not RFC 8259 JSON (strict UTF-8, no NaN or Infinity), the error before the end
  truncated         not JSON, the text ending before the document does
  unrecognised      JSON, but not an object with four of Lottie's top-level keys
  limit             a canvas or frame count over the default decoding limits
  same N            a Lottie document equal to the original but for names ("nm"): N frames,
                    drawn as the original's
  frames N          a Lottie document of N frames (Int(op) - Int(ip)) that rlottie may refuse
  utf8 VERDICT      bytes that are not UTF-8 (RFC 8259 section 8.1: malformed), all inside
                    strings; VERDICT is what the text would give were they read as characters
A document failing the top-level rules (w, h, fr, ip, op numbers, a layers array, w and h
at least 1, fr from 0.01 to 1000, op at least one frame after ip) is malformed.
"""
import json
import math
import sys

DOCUMENT_KEYS = {"v", "fr", "ip", "op", "w", "h", "layers"}


def no_constants(name):
    raise ValueError("not JSON: " + name)


def without_names(value):
    if isinstance(value, dict):
        return {k: without_names(v) for k, v in value.items() if k != "nm"}
    if isinstance(value, list):
        return [without_names(v) for v in value]
    return value


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def verdict(raw, original):
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        # Outside a string such a byte breaks the JSON syntax itself.
        inner = verdict_of_text(raw.decode("utf-8", errors="surrogateescape"), original)
        return "utf8 " + inner if inner not in ("malformed", "truncated") else inner
    return verdict_of_text(text, original)


def verdict_of_text(text, original):
    try:
        document = json.loads(text, parse_constant=no_constants)
    except json.JSONDecodeError as error:
        ended = error.msg.startswith("Unterminated string") or error.pos >= len(text.rstrip(" \t\r\n"))
        return "truncated" if ended else "malformed"
    except ValueError:
        return "malformed"
    if not isinstance(document, dict) or len(DOCUMENT_KEYS & set(document)) < 4:
        return "unrecognised"
    numbers = [document.get(key) for key in ("w", "h", "fr", "ip", "op")]
    if not all(is_number(n) for n in numbers) or not isinstance(document.get("layers"), list):
        return "malformed"
    w, h, fr, ip, op = numbers
    if not (1 <= w < 1e9 and 1 <= h < 1e9) or not (0.01 <= fr <= 1000):
        return "malformed"
    if not (abs(ip) < 1e9 and abs(op) < 1e9 and op - ip >= 1):
        return "malformed"
    frames = int(op) - int(ip)
    width, height = int(w), int(h)
    if width * height > 64 << 20 or frames > 10000 or width * height * 4 * frames > 4 << 30:
        return "limit"
    if without_names(document) == without_names(original):
        return "same %d" % frames
    return "frames %d" % frames


def main():
    original = json.loads(open(sys.argv[1], encoding="utf-8").read())
    with open(sys.argv[2]) as docs, open(sys.argv[3], "w") as out:
        for line in docs:
            out.write(verdict(bytes.fromhex(line.strip()), original) + "\n")


if __name__ == "__main__":
    main()
