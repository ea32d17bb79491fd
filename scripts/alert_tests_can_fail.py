#!/usr/bin/env python3
"""Shows that deploy/prometheus/alerts_test.yaml tests every alert both ways: for each
alert of alerts.yaml, `promtool test rules` must fail once the alert's expression is
replaced by one that never fires (`vector(1) == 0`: the firing cases catch it) and once
by one that fires all the time without the alert's labels (`vector(1)`: the silent
cases or the firing cases' labels catch it).

  scripts/alert_tests_can_fail.py      (promtool on PATH; run by prometheus_check.sh)
"""

import os
import shutil
import subprocess
import sys
import tempfile

import yaml

HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                    "deploy/prometheus")


def promtool_test(work):
    return subprocess.run(["promtool", "test", "rules", "alerts_test.yaml"], cwd=work,
                          capture_output=True, text=True, timeout=60).returncode


def main():
    with open(os.path.join(HERE, "alerts.yaml")) as f:
        rules = yaml.safe_load(f)
    names = [r["alert"] for g in rules["groups"] for r in g["rules"] if "alert" in r]
    work = tempfile.mkdtemp(prefix="climbot-alert-tests-")
    try:
        shutil.copy(os.path.join(HERE, "alerts_test.yaml"), work)
        shutil.copy(os.path.join(HERE, "alerts.yaml"), work)
        if promtool_test(work) != 0:
            sys.exit("alert tests: the unchanged rules fail their tests")
        weak = []
        for name in names:
            for label, expr in (("never fires", "vector(1) == 0"), ("always fires", "vector(1)")):
                mutated = yaml.safe_load(yaml.safe_dump(rules))
                for group in mutated["groups"]:
                    for rule in group["rules"]:
                        if rule.get("alert") == name:
                            rule["expr"] = expr
                with open(os.path.join(work, "alerts.yaml"), "w") as f:
                    yaml.safe_dump(mutated, f)
                if promtool_test(work) == 0:
                    weak.append(f"{name} ({label})")
        if weak:
            sys.exit("alert tests: still pass with a broken alert: " + ", ".join(weak))
        print(f"alert tests: each of the {len(names)} alerts is tested firing and silent "
              f"({2 * len(names)} broken variants, all caught)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
