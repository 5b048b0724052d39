"""A throwaway PostgreSQL server started from the machine's own binaries (tests and benchmark).

Why not pytest-postgresql: the benchmark (`quizbot bench`) and the multi-worker tests need the
same server outside pytest, and what they need is small: `initdb` into a fresh folder, `pg_ctl
start` listening on a unix socket in that folder only (no TCP port to collide with anyone else's
server), `pg_ctl stop` at the end. PostgreSQL refuses to run as root, and CI runs as root, so as
root the cluster is created and run by an unprivileged user (`postgres`, which the Debian
package creates, else `nobody`) through `runuser`.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

HOW_TO_GET = (
    "PostgreSQL server binaries (initdb, pg_ctl) not found: install them "
    "(Debian/Ubuntu: apt-get install -y postgresql; macOS: brew install postgresql@15), "
    "or put their folder on PATH or in QUIZBOT_PG_BIN"
)
SUPERUSER = "quizbot"


class NoPostgres(RuntimeError):
    """The machine has no PostgreSQL server binaries; the message says how to get them."""


def find_bindir() -> Path:
    """The folder holding initdb and pg_ctl: QUIZBOT_PG_BIN, PATH, then Debian's layout."""
    env = os.environ.get("QUIZBOT_PG_BIN")
    candidates = [Path(env)] if env else []
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(Path(on_path).parent)
    # Debian installs server binaries outside PATH, one folder per major version: newest first.
    debian = sorted(
        glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]), reverse=True
    )
    candidates += [Path(p) for p in debian]
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    raise NoPostgres(HOW_TO_GET)


def _unprivileged_user() -> pwd.struct_passwd | None:
    """None when not root (run as ourselves), else the account to run the server as."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    raise NoPostgres("running as root and no unprivileged user (postgres, nobody) to run as")


@dataclass
class Cluster:
    """One server in a temporary folder; `dsn(db)` connects to it over its unix socket."""

    durable: bool = False  # False: fsync off, for tests; the benchmark keeps PostgreSQL's default
    port: int = 5432  # only names the socket file: the server listens on no TCP address
    preload: tuple[str, ...] = ()  # shared_preload_libraries, e.g. pg_stat_statements (bench)
    bindir: Path = field(default_factory=find_bindir)
    root: Path = field(init=False)
    _user: pwd.struct_passwd | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="quizbot-pg-"))
        self._user = _unprivileged_user()

    @property
    def datadir(self) -> Path:
        return self.root / "data"

    @property
    def socket_dir(self) -> Path:
        return self.root

    def dsn(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@/{database}?host={self.socket_dir}&port={self.port}"

    def _run(self, *args: str) -> None:
        cmd = [str(self.bindir / args[0]), *args[1:]]
        if self._user is not None:
            cmd = ["runuser", "-u", self._user.pw_name, "--", *cmd]
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{args[0]} failed ({done.returncode}): {done.stderr.strip()}")

    def start(self) -> Cluster:
        if self._user is not None:
            # mkdtemp made the folder 0700 for root: hand it to the server's user.
            os.chown(self.root, self._user.pw_uid, self._user.pw_gid)
        self._run(
            "initdb", "-D", str(self.datadir), "-U", SUPERUSER, "--auth=trust",
            "--encoding=UTF8", "--locale=C", "--no-sync",
        )  # fmt: skip
        options = [
            "-c listen_addresses=''",
            f"-c unix_socket_directories='{self.socket_dir}'",
            f"-p {self.port}",
            "-c max_connections=200",
        ]
        if self.preload:
            options.append(f"-c shared_preload_libraries={','.join(self.preload)}")
        if not self.durable:
            options += ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]
        self._run(
            "pg_ctl", "start", "-w", "-t", "60", "-D", str(self.datadir),
            "-l", str(self.root / "server.log"), "-o", " ".join(options),
        )  # fmt: skip
        return self

    def stop(self) -> None:
        """Stop the server (fast: connections are cut) and delete its folder."""
        try:
            if (self.datadir / "postmaster.pid").exists():
                self._run("pg_ctl", "stop", "-w", "-m", "fast", "-D", str(self.datadir))
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def log_tail(self, lines: int = 40) -> str:
        try:
            text = (self.root / "server.log").read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])
