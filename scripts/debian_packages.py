"""Installs Debian packages a test needs, for scripts/browser and scripts/mit-kdc.

    from debian_packages import ensure_installed
    ensure_installed("browser", ["chromium"], "pass its path as -Dsecurethrift.browser=/path/to/chromium")

Both scripts install their packages only when what they look for is missing, and only as root with apt-get; otherwise
they fail and say what to install. apt-get's output goes to standard error, so that standard output carries only the
path the script prints.
"""

import os
import shutil
import subprocess
import sys


def _apt_install(packages: list, env: dict) -> None:
    command = ["apt-get", "install", "-y", "--no-install-recommends", *packages]
    if subprocess.run(command, stdout=sys.stderr, env=env).returncode == 0:
        return
    # A fresh machine's package lists may be empty or stale: refresh them once and try again.
    subprocess.run(["apt-get", "update"], stdout=sys.stderr, env=env, check=True)
    subprocess.run(command, stdout=sys.stderr, env=env, check=True)


def ensure_installed(script: str, packages: list, otherwise: str) -> None:
    """Installs `packages` with apt-get, or exits naming them; `otherwise` says how to do without the script."""
    names = " ".join(packages)
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        sys.exit(f"{script}: this is not a root shell with apt-get, so {names} cannot be installed here. Install it"
                 f" (on Debian: sudo apt-get install {names}) and run again, or {otherwise}.")
    print(f"{script}: installing Debian's {names} with apt-get", file=sys.stderr)
    try:
        _apt_install(packages, dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
    except subprocess.CalledProcessError as e:
        sys.exit(f"{script}: apt-get could not install {names} (exit code {e.returncode}); see its output above")
