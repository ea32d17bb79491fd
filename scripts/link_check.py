#!/usr/bin/env python3
"""Checks the repository's Markdown links: every relative link and image must name a file
or folder that exists, and every anchor (`#section`) a heading of its target, with the
anchors GitHub gives headings. Paths quoted as code (`docs/api.md`) that start with one
of the repository's top-level folders must exist too (from the root, or from the file's
own folder), so that a moved file is not left
named in prose.

Reads README.md, CHANGELOG.md and the Markdown under docs/, crates/*/, examples/ and
deploy/ (never node_modules/). Links to other sites are not fetched (CI has no network
but the package registries). Exit 0 when everything resolves, 1 with one line per broken
link otherwise.

Usage: scripts/link_check.py [ROOT]   (ROOT defaults to the repository holding this file)
"""

import re
import sys
import unicodedata
from pathlib import Path

TOP_LEVEL = ("docs", "src", "crates", "tests", "scripts", "deploy", "examples", "proto",
             "benches", "fuzz", ".ci")
INLINE_LINK = re.compile(r"(!?)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_DEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
HTML_ANCHOR = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"")


def markdown_files(root: Path) -> list[Path]:
    files = [root / "README.md", root / "CHANGELOG.md"]
    for folder in ("docs", "crates", "examples", "deploy"):
        files += sorted((root / folder).rglob("*.md"))
    return [f for f in files if f.is_file() and "node_modules" not in f.parts]


def prose_lines(text: str):
    """(line number, line) outside fenced code blocks."""
    fence = None
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.lstrip()
        marker = re.match(r"(`{3,}|~{3,})", stripped)
        if marker:
            if fence is None:
                fence = marker.group(1)[0] * len(marker.group(1))
                continue
            if stripped.startswith(fence):
                fence = None
                continue
        if fence is None:
            yield number, line


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: the rendered text lower-cased, punctuation
    dropped, spaces turned into hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links keep their text
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML
    text = text.replace("`", "").strip().lower()
    kept = []
    for ch in text:
        if ch in (" ", "-", "_") or unicodedata.category(ch)[0] in ("L", "N", "M"):
            kept.append(ch)
    return "".join(kept).replace(" ", "-")


def anchors(path: Path, cache: dict) -> set:
    if path not in cache:
        found, seen = set(), {}
        text = path.read_text(encoding="utf-8")
        for _, line in prose_lines(text):
            match = re.match(r"\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$", line)
            if match:
                base = slug(match.group(2))
                count = seen.get(base, 0)
                seen[base] = count + 1
                found.add(base if count == 0 else f"{base}-{count}")
            found.update(HTML_ANCHOR.findall(line))
        cache[path] = found
    return cache[path]


def check_target(root: Path, source: Path, target: str, cache: dict):
    """None if `target` (a link written in `source`) resolves, else the reason."""
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target) or target.startswith("//"):
        return None  # another site, or mailto:
    path_part, _, anchor = target.partition("#")
    resolved = (source.parent / path_part).resolve() if path_part else source
    try:
        resolved.relative_to(root)
    except ValueError:
        return "points outside the repository"
    if not resolved.exists():
        return "no such file or folder"
    if anchor:
        if resolved.is_dir() or resolved.suffix.lower() != ".md":
            return "an anchor into something that is not a Markdown file"
        if anchor not in anchors(resolved, cache):
            return f"no heading with the anchor #{anchor} in {resolved.relative_to(root)}"
    return None


def check_file(root: Path, path: Path, cache: dict) -> list[str]:
    errors = []
    rel = path.relative_to(root)
    text = path.read_text(encoding="utf-8")
    for number, line in prose_lines(text):
        spans = [m.group(2).strip() for m in CODE_SPAN.finditer(line)]
        outside_code = CODE_SPAN.sub("", line)
        targets = [m.group(3) for m in INLINE_LINK.finditer(outside_code)]
        reference = REFERENCE_DEF.match(outside_code)
        if reference:
            targets.append(reference.group(1))
        for target in targets:
            reason = check_target(root, path, target, cache)
            if reason:
                errors.append(f"{rel}:{number}: link ({target}): {reason}")
        for span in spans:
            if not span.startswith(tuple(t + "/" for t in TOP_LEVEL)):
                continue
            if re.search(r"[\s{}*<>$|,;:=()\[\]]", span) or span.endswith(".."):
                continue  # a command, a pattern or a placeholder, not one path
            if not (root / span).exists() and not (path.parent / span).exists():
                errors.append(f"{rel}:{number}: `{span}`: no such file or folder")
    return errors


def main() -> int:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent)
    root = root.resolve()
    cache: dict = {}
    files = markdown_files(root)
    errors = [e for f in files for e in check_file(root, f, cache)]
    for error in errors:
        print(error, file=sys.stderr)
    if errors:
        print(f"links: {len(errors)} broken in {len(files)} Markdown files", file=sys.stderr)
        return 1
    print(f"links: every relative link, anchor and quoted path resolves ({len(files)} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
