"""`shootout clean`: forget framework builds (setup markers and build output) so the next setup redoes them.

What killed harnesses left behind is swept before this, as before every command (cli.main); for `clean` the
sweep also says when it found nothing.
"""

from __future__ import annotations

import shutil

from ..stacks import provision
from ..console import say
from ..config.settings import Settings


def run(settings: Settings) -> int:
    folders = {v.folder for v in settings.variants()}
    for folder in sorted(folders):
        (folder / provision.MARKER).unlink(missing_ok=True)
        for name in provision.BUILD_DIRS:
            if (folder / name).is_dir():
                shutil.rmtree(folder / name)
        say(f"cleaned {folder.relative_to(settings.root)}")
    return 0
