"""One load tool's run as "answers cpu_s": its valid answers (from its own output) and its CPU seconds (from
/usr/bin/time -f "%U %S"). Errors are printed to stderr. Usage: counts.py TOOL OUTPUT TIMING"""

import json
import re
import sys

tool, out, timing = sys.argv[1:]
text = open(out).read()
if tool in ("shootout-load", "h2-crate"):
    data = json.loads(text)
    answers = data["requests"]
    errors = sum(data["errors"].values()) if isinstance(data["errors"], dict) else data["errors"]
elif tool == "ghz":
    codes = json.loads(text).get("statusCodeDistribution", {})
    answers, errors = codes.get("OK", 0), sum(v for k, v in codes.items() if k != "OK")
else:
    counts = re.search(r"requests: \d+ total, \d+ started, \d+ done, (\d+) succeeded, (\d+) failed, (\d+) errored", text)
    if not counts:
        sys.exit(f"h2load printed no request count: {text[-400:]}")
    answers, errors = int(counts.group(1)), int(counts.group(2)) + int(counts.group(3))
if errors:
    print(f"{tool}: {errors} errors", file=sys.stderr)
user, system = open(timing).read().split()[-2:]
print(answers, round(float(user) + float(system), 3))
