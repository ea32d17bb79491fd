#!/usr/bin/env python3
"""Shows that the two documentation checks fail when they should: scripts/link_check.py
on a broken link, a broken anchor and a stale quoted path, and scripts/changelog_check.py
on a change to the API, the command line or served behaviour without an entry, each in
a scratch copy made for the purpose (a small tree, a small git repository). Also shows
that each passes on the good case, merge commits and a waiver included.

Usage: scripts/docs_checks_test.py
"""

import os
import subprocess
import sys
import tempfile
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent
FAILURES = []


def expect(name: str, command: list, code: int, env=None):
    result = subprocess.run(command, capture_output=True, text=True,
                            env={**os.environ, **(env or {})})
    ok = (result.returncode == 0) == (code == 0)
    print(f"{'ok' if ok else 'FAILED'}: {name} (exit {result.returncode})")
    if not ok:
        FAILURES.append(name)
        print(result.stdout + result.stderr)


def write(root: Path, path: str, text: str):
    (root / path).parent.mkdir(parents=True, exist_ok=True)
    (root / path).write_text(text)


def link_cases():
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        write(root, "docs/api.md", "# API\n\n## Budget and deadlines\n\n## HTTP/2 settings\n")
        write(root, "src/main.rs", "fn main() {}\n")
        good = ("# Front\n\n[api](docs/api.md), [budgets](docs/api.md#budget-and-deadlines),"
                " [h2](docs/api.md#http2-settings), [here](#front), `src/main.rs`,\n"
                "[site](https://example.invalid/x), `docs/{a,b}.md`\n\n"
                "```\n[not a link](nowhere.md)\n```\n")
        check = [sys.executable, str(SCRIPTS / "link_check.py"), str(root)]
        write(root, "README.md", good)
        expect("links: every link resolves", check, 0)
        for name, line in [("a missing file", "[x](docs/gone.md)"),
                           ("a missing anchor", "[x](docs/api.md#budgets)"),
                           ("a missing anchor in the same file", "[x](#nowhere)"),
                           ("a stale quoted path", "`docs/measurements/gone.md`"),
                           ("a link out of the repository", "[x](../../etc/passwd)")]:
            write(root, "README.md", good + "\n" + line + "\n")
            expect(f"links: {name} fails", check, 1)


def git(repo: Path, *args: str):
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"})


def commit(repo: Path, message: str, files: dict):
    for path, text in files.items():
        write(repo, path, text)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


def changelog_cases():
    check = [sys.executable, str(SCRIPTS / "changelog_check.py")]
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp)
        git(repo, "init", "-q", "-b", "main")
        commit(repo, "first", {"CHANGELOG.md": "# Changelog\n", "src/service/a.rs": "1\n"})
        expect("changelog: a first commit passes", check + [str(repo)], 0)
        commit(repo, "docs", {"docs/x.md": "x\n"})
        expect("changelog: a change to docs alone passes", check + [str(repo)], 0)
        commit(repo, "service", {"src/service/a.rs": "2\n"})
        expect("changelog: a served change without an entry fails", check + [str(repo)], 1)
        commit(repo, "proto", {"proto/climbot/v1/bot.proto": "p\n"})
        expect("changelog: a proto change without an entry fails", check + [str(repo)], 1)
        commit(repo, "cli", {"src/arena/cli.rs": "c\n", "CHANGELOG.md": "# Changelog\n- c\n"})
        expect("changelog: a CLI change with an entry passes", check + [str(repo)], 0)
        commit(repo, "core\n\nChangelog: none (a refactor)", {"crates/climbot-core/src/a.rs": "r\n"})
        expect("changelog: a waived change passes", check + [str(repo)], 0)
        commit(repo, "core\n\nChangelog: none", {"crates/climbot-core/src/a.rs": "s\n"})
        expect("changelog: a waiver without a reason fails", check + [str(repo)], 1)
        # A branch whose entry is in an earlier commit than its code, merged with a merge
        # commit: the merge brings both in and passes.
        git(repo, "checkout", "-q", "-b", "feature")
        commit(repo, "entry", {"CHANGELOG.md": "# Changelog\n- c\n- t\n"})
        commit(repo, "tools", {"src/tools/t.rs": "t\n"})
        expect("changelog: the branch's last commit alone fails", check + [str(repo)], 1)
        expect("changelog: the branch against main passes", check + [str(repo)], 0,
               {"CHANGELOG_BASE": "main"})
        git(repo, "checkout", "-q", "main")
        commit(repo, "main moves on", {"docs/y.md": "y\n"})
        git(repo, "merge", "-q", "--no-ff", "-m", "merge feature", "feature")
        expect("changelog: the merge of a branch with an entry passes", check + [str(repo)], 0)
        git(repo, "checkout", "-q", "-b", "bare", "HEAD~1")
        commit(repo, "playground", {"src/playground/p.rs": "p\n"})
        git(repo, "checkout", "-q", "main")
        git(repo, "merge", "-q", "--no-ff", "-m", "merge bare", "bare")
        expect("changelog: the merge of a branch without an entry fails", check + [str(repo)], 1)


def main() -> int:
    link_cases()
    changelog_cases()
    if FAILURES:
        print(f"docs checks: {len(FAILURES)} cases went the wrong way", file=sys.stderr)
        return 1
    print("docs checks: every case went the expected way")
    return 0


if __name__ == "__main__":
    sys.exit(main())
