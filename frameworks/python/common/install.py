"""Puts shootout_common on the path of the Python that runs this (a framework's .venv/bin/python).

A .pth file in the venv's site-packages names this folder, so the apps import the shared code from
where it is edited, and the setup hash (setup.inputs = ["../common"]) rebuilds when it changes.
"""

import sysconfig
from pathlib import Path

here = Path(__file__).resolve().parent
pth = Path(sysconfig.get_path("purelib")) / "shootout_common.pth"
pth.write_text(f"{here}\n")
