"""`shootout lab up|down|status`: the three-namespace lab that stands in for three machines."""

from __future__ import annotations

import sys

from ..hosts import lab
from ..console import say
from ..stacks.provision import SetupError

ACTIONS = ("up", "down", "status")


def run(action: str) -> int:
    try:
        if action == "up":
            hosts_file = lab.up(say)
            say(f"lab is up; its hosts file: {hosts_file}")
            print(hosts_file)
            return 0
        if action == "down":
            say("lab removed" if lab.down(say) else f"no lab is up (no state in {lab.STATE_DIR})")
            return 0
        return _status()
    except (lab.LabError, SetupError) as exc:
        print(f"shootout: lab {action}: {exc}", file=sys.stderr)
        return 2


def _status() -> int:
    """Prints what exists; exit 0 when the whole lab is up, 1 when nothing or only part of it is."""
    now = lab.status()
    complete = now["state"] and now["bridge"] and now["hosts_file"] is not None
    print(f"state:      {lab.STATE_DIR if now['state'] else 'none'}")
    print(f"bridge:     {lab.BRIDGE if now['bridge'] else 'absent'}")
    for role, parts in now["roles"].items():
        sshd = f"sshd pid {parts['sshd_pid']}" if parts["sshd_pid"] else "no sshd"
        print(f"{role + ':':<11} {parts['namespace'] or 'no namespace'}, "
              f"{'veth' if parts['veth'] else 'no veth'}, {parts['address']}, {sshd}")
        complete = complete and parts["namespace"] and parts["veth"] and parts["sshd_pid"]
    print(f"hosts file: {now['hosts_file'] or 'none'}")
    return 0 if complete else 1
