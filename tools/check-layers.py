#!/usr/bin/env python3
"""Checks that every `#include "quarry/..."` under src/ follows the layer order.

The order is the diagram in docs/ARCHITECTURE.md, section "Layers", between the
markers `<!-- layers: begin -->` and `<!-- layers: end -->`: one line per rank,
the top layer first, each naming one or more folders under src/quarry/ (text
after a `#` is a comment). A file belongs to the folder listed that is the
longest prefix of its path (formats/parquet/encoding/ is part of
formats/parquet/). A file may include its own folder's headers and those of
folders on lower lines; folders on one line are siblings and include none of
each other's headers. The public headers (include/quarry/NAME.h, included as
"quarry/NAME.h") are the api/ layer's.

Usage: check-layers.py [ROOT]   (ROOT: the checkout, by default this script's
parent's parent). Exits 1 naming each include that goes against the order
(file:line: include), 2 when the diagram cannot be read.
"""

import os
import re
import sys

BEGIN = "<!-- layers: begin -->"
END = "<!-- layers: end -->"
INCLUDE = re.compile(r'^\s*#\s*include\s+"(quarry/[^"]+)"')


def read_ranks(doc_path):
    """Returns {folder: rank}, rank 0 the lowest layer."""
    with open(doc_path, encoding="utf-8") as f:
        text = f.read()
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        raise ValueError(f"{doc_path}: no layer diagram between '{BEGIN}' and '{END}'")
    lines = []
    for line in text[start + len(BEGIN):end].splitlines():
        line = line.split("#", 1)[0].strip()
        if not line or line.startswith("```"):
            continue
        lines.append(line.split())
    ranks = {}
    for rank, folders in enumerate(reversed(lines)):
        for folder in folders:
            folder = folder.strip("/")
            if not re.fullmatch(r"[a-z0-9_]+(/[a-z0-9_]+)*", folder):
                raise ValueError(f"{doc_path}: '{folder}' in the layer diagram is not a folder name")
            if folder in ranks:
                raise ValueError(f"{doc_path}: '{folder}' appears twice in the layer diagram")
            ranks[folder] = rank
    if not ranks:
        raise ValueError(f"{doc_path}: the layer diagram names no folder")
    return ranks


def layer_of(path, ranks):
    """The listed folder that is the longest prefix of `path` (relative to src/quarry/)."""
    parts = path.split("/")[:-1]
    while parts:
        folder = "/".join(parts)
        if folder in ranks:
            return folder
        parts.pop()
    return None


def is_public_header(root, include):
    """Whether `include` names a public header (include/quarry/NAME.h): the api layer's."""
    rest = include[len("quarry/"):]
    return "/" not in rest and os.path.isfile(os.path.join(root, "include", include))


def check(root):
    ranks = read_ranks(os.path.join(root, "docs", "ARCHITECTURE.md"))
    src = os.path.join(root, "src", "quarry")
    problems = []
    for dirpath, _, files in os.walk(src):
        for name in sorted(files):
            if not name.endswith((".h", ".cc", ".cpp", ".hpp")):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, src).replace(os.sep, "/")
            own = layer_of(rel, ranks)
            if own is None:
                problems.append((f"src/quarry/{rel}", 0,
                                 f"src/quarry/{rel}: its folder is in no layer of docs/ARCHITECTURE.md"))
                continue
            with open(path, encoding="utf-8", errors="replace") as f:
                for number, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    target = layer_of(m.group(1)[len("quarry/"):], ranks)
                    if target is None and "api" in ranks and is_public_header(root, m.group(1)):
                        target = "api"
                    if target == own:
                        continue
                    if target is None:
                        why = "its folder is in no layer"
                    elif ranks[target] == ranks[own]:
                        why = f"{own}/ and {target}/ are siblings"
                    elif ranks[target] > ranks[own]:
                        why = f"{target}/ is above {own}/"
                    else:
                        continue
                    problems.append((f"src/quarry/{rel}", number,
                                     f"src/quarry/{rel}:{number}: #include \"{m.group(1)}\" ({why})"))
    return problems


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        problems = check(root)
    except (OSError, ValueError) as e:
        print(f"check-layers: {e}", file=sys.stderr)
        return 2
    for _, _, message in sorted(problems):
        print(message, file=sys.stderr)
    if problems:
        print(f"check-layers: {len(problems)} include(s) against the layer order of docs/ARCHITECTURE.md",
              file=sys.stderr)
        return 1
    print("check-layers: every include follows the layer order")
    return 0


if __name__ == "__main__":
    sys.exit(main())
