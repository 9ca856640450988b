"""Messages to the terminal: the one way every module below the commands speaks to the user (stderr, so a
command's own output on stdout stays clean for pipes)."""

import sys


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)
