"""A case's median ratio and its rounds, one line. Usage: median.py NAME RATIO..."""

import statistics
import sys

name, ratios = sys.argv[1], [float(x) for x in sys.argv[2:]]
print(f"{name:36} median {statistics.median(ratios):.2f}  (rounds: {', '.join(f'{x:.2f}' for x in ratios)})")
