#!/usr/bin/env python3
"""Pastes the outputs run_guide.sh wrote into docs/user-guide.md, so that the guide shows
them exactly as the tools printed them.

A marker line in the guide, `<!-- output NAME LINES -->`, is followed by a fenced block;
this script replaces the block's body with lines LINES of NAME.txt in the outputs folder
(default docs/guide/output): LINES is `all` or ranges such as `1-8,12,20-`, and a line
`...` stands where lines were left out. Usage:

    python3 docs/guide/paste_outputs.py [--outputs DIR] [--check]

--check changes nothing and exits 1 if any block differs from its output (or a marker
names a file that is missing), so a stale guide is caught.
"""
import argparse
import pathlib
import re
import sys

MARKER = re.compile(r"^<!-- output (\S+) (\S+) -->$")


def pick(lines, spec):
    """The lines `spec` names (1-based, inclusive), with '...' where lines are skipped."""
    if spec == "all":
        return list(lines)
    chosen = []
    for part in spec.split(","):
        first, _, last = part.partition("-")
        start = int(first)
        end = start if not _ else (int(last) if last else len(lines))
        chosen.extend(range(start, min(end, len(lines)) + 1))
    out, previous = [], 0
    for number in chosen:
        if number != previous + 1:
            out.append("...")
        out.append(lines[number - 1])
        previous = number
    if previous < len(lines):
        out.append("...")
    return out


def paste(text, outputs):
    """The guide with every marked block refilled, and the list of problems found."""
    lines, result, problems, i = text.split("\n"), [], [], 0
    while i < len(lines):
        line = lines[i]
        result.append(line)
        i += 1
        match = MARKER.match(line)
        if not match:
            continue
        if i >= len(lines) or not lines[i].startswith("```"):
            problems.append(f"line {i}: marker not followed by a fenced block")
            continue
        result.append(lines[i])
        end = i + 1
        while end < len(lines) and lines[end] != "```":
            end += 1
        source = outputs / f"{match.group(1)}.txt"
        if not source.exists():
            problems.append(f"line {i}: {source} is missing")
            result.extend(lines[i + 1 : end])
        else:
            body = source.read_text().rstrip("\n").split("\n")
            result.extend(pick(body, match.group(2)))
        result.append("```")
        i = end + 1
    return "\n".join(result), problems


def main():
    here = pathlib.Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--outputs", type=pathlib.Path, default=here / "output")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    guide = here.parent / "user-guide.md"
    text = guide.read_text()
    new, problems = paste(text, args.outputs)
    for problem in problems:
        print(f"paste_outputs.py: {guide}: {problem}", file=sys.stderr)
    if args.check:
        if new != text:
            print(f"paste_outputs.py: {guide} differs from the outputs in {args.outputs}",
                  file=sys.stderr)
        return 1 if problems or new != text else 0
    if new != text:
        guide.write_text(new)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
