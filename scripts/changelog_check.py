#!/usr/bin/env python3
"""Checks that a change users can see comes with a CHANGELOG.md entry.

What users see: the API (`proto/`), the command line (`src/main.rs`, `src/arena/cli.rs`,
`src/tools/`, `src/playground/`, `src/uecda/`) and what the service serves
(`src/service/`, and the games, bots and search of `crates/climbot-core/src/`, whose
answers the service returns).

What is checked: by default the change that HEAD makes to its first parent, which is
what CI's fresh clone of main can see. For an ordinary commit that is the commit
itself; for a merge it is everything the merge brings in, so a branch passes when any
of its commits added the entry. With `CHANGELOG_BASE=<rev>` (a pull request's target,
say) the change is everything since the merge base of `<rev>` and HEAD.

The change passes when it touches none of those paths, when it changes CHANGELOG.md,
or when one of its commit messages says why no entry is needed, on a line of its own:

    Changelog: none (a refactor: answers, errors and flags are unchanged)

A HEAD with no parent (the first commit, or a clone made with --depth 1) has nothing
to compare and passes with a note.

Usage: scripts/changelog_check.py [REPO]   (REPO defaults to the current directory)
"""

import os
import re
import subprocess
import sys

WATCHED = (
    "proto/",
    "src/main.rs",
    "src/arena/cli.rs",
    "src/tools/",
    "src/playground/",
    "src/uecda/",
    "src/service/",
    "crates/climbot-core/src/",
)
WAIVER = re.compile(r"^changelog:[ \t]*none\b[ \t]*\S", re.IGNORECASE | re.MULTILINE)


def git(repo: str, *args: str) -> str:
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True,
                          text=True).stdout


def has_commit(repo: str, rev: str) -> bool:
    return subprocess.run(["git", "-C", repo, "rev-parse", "--verify", "--quiet",
                           rev + "^{commit}"], capture_output=True).returncode == 0


def main() -> int:
    repo = sys.argv[1] if len(sys.argv) > 1 else "."
    base_ref = os.environ.get("CHANGELOG_BASE")
    if base_ref:
        base = git(repo, "merge-base", base_ref, "HEAD").strip()
        described = f"since {base_ref} ({base[:10]})"
    else:
        if not has_commit(repo, "HEAD^1"):
            print("changelog: HEAD has no parent here, nothing to compare")
            return 0
        base = git(repo, "rev-parse", "HEAD^1").strip()
        described = f"HEAD ({git(repo, 'rev-parse', '--short', 'HEAD').strip()}) against its first parent"
    changed = git(repo, "diff", "--name-only", "--no-renames", base, "HEAD").split()
    watched = [path for path in changed if path.startswith(WATCHED)]
    if not watched:
        print(f"changelog: {described} changes nothing users see")
        return 0
    if "CHANGELOG.md" in changed:
        print(f"changelog: {described} changes what users see and CHANGELOG.md")
        return 0
    messages = git(repo, "log", "--format=%B%x00", f"{base}..HEAD")
    if WAIVER.search(messages):
        print(f"changelog: {described} changes what users see; a commit message says "
              "why no entry is needed")
        return 0
    shown = "\n".join(f"  {path}" for path in watched[:20])
    more = f"\n  ... and {len(watched) - 20} more" if len(watched) > 20 else ""
    print(f"changelog: {described} changes what users see without a CHANGELOG.md entry:\n"
          f"{shown}{more}\n"
          "Add an entry under [Unreleased] in CHANGELOG.md, or, if users see no difference "
          "(a refactor, a test, a comment), say so in the commit message on a line of its "
          "own: `Changelog: none (the reason)`.", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
