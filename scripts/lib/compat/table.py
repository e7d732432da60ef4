#!/usr/bin/env python3
"""The compat table: version x feature -> grade, from OUT/<version>/result.json.

    table.py OUT VERSION...

Writes OUT/table.md and prints it; exits 1 when a cell is wrong or not-run
(or a version did not start), 0 otherwise.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
out, versions = sys.argv[1], sys.argv[2:]
from features import FEATURES  # noqa: E402
rows, bad, notes = [], [], []
for v in versions:
    d = os.path.join(out, v)
    mode = open(os.path.join(d, "mode")).read().strip() if os.path.exists(os.path.join(d, "mode")) else "?"
    up = open(os.path.join(d, "startup")).read().strip() if os.path.exists(os.path.join(d, "startup")) else "-"
    try:
        res = json.load(open(os.path.join(d, "result.json")))
    except (OSError, ValueError):
        res = {f: {"grade": "not-run", "reason": "the cluster did not start or the suite did not finish"} for f in FEATURES}
    cells = []
    for f in FEATURES:
        g = res.get(f, {"grade": "not-run", "reason": "missing"})
        cells.append(g["grade"])
        if g["grade"] in ("wrong", "not-run"):
            bad.append(f"{v} {f}: {g['grade']}: {g['reason']}")
    rows.append([f"{v} ({mode})", f"{up} s"] + cells)
header = ["Kafka", "start-up"] + FEATURES
lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
lines += ["| " + " | ".join(r) + " |" for r in rows]
text = "\n".join(lines) + "\n"
if bad:
    text += "\nNot ok (details in .run/compat/VERSION/suite.log):\n\n" + "\n".join(f"- {b}" for b in bad) + "\n"
open(os.path.join(out, "table.md"), "w").write(text)
print(text)
sys.exit(1 if bad else 0)
