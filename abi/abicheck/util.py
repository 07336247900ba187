"""Running tools, finding files, reading text."""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence


@dataclass
class Run:
    rc: int
    out: str          # stdout, then stderr
    cmd: str
    stdout: str = ""
    stderr: str = ""

    def tail(self, n: int = 30) -> str:
        lines = self.out.rstrip().splitlines()
        return "\n".join(lines[-n:])


def run(cmd: Sequence[str], cwd: Optional[str] = None, env: Optional[Dict[str, str]] = None,
        timeout: int = 600) -> Run:
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    try:
        p = subprocess.run(list(cmd), cwd=cwd, env=full_env, timeout=timeout,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out = p.stdout.decode("utf-8", "replace")
        err = p.stderr.decode("utf-8", "replace")
        return Run(p.returncode, out + err, " ".join(cmd), out, err)
    except FileNotFoundError as e:
        return Run(127, f"{cmd[0]}: not found ({e})", " ".join(cmd))
    except OSError as e:
        # Not runnable (permissions, "text file busy"): a failed check with the reason, not a
        # traceback.
        return Run(126, f"{cmd[0]}: could not be run ({e})", " ".join(cmd))
    except subprocess.TimeoutExpired:
        return Run(124, f"timed out after {timeout} s", " ".join(cmd))


def which(tool: str, env_var: Optional[str] = None) -> Optional[str]:
    """A tool's path: $ENV_VAR if set, else the PATH."""
    if env_var and os.environ.get(env_var):
        return os.environ[env_var]
    return shutil.which(tool)


def read(path: str) -> str:
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def rel(path: str, root: str) -> str:
    """A path relative to the repository root where it is inside it (shorter reports)."""
    try:
        r = os.path.relpath(path, root)
    except ValueError:
        return path
    return path if r.startswith("..") else r


def files_under(root: str, suffixes: Sequence[str], skip_dirs: Sequence[str] = ()) -> List[str]:
    """Files below `root` ending in one of `suffixes`, sorted, skipping build output folders."""
    skip = set(skip_dirs) | {"bin", "obj", "target", "zig-cache", ".zig-cache", "zig-out", ".git"}
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in skip)
        for f in sorted(filenames):
            if f.endswith(tuple(suffixes)):
                found.append(os.path.join(dirpath, f))
    return found


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1
