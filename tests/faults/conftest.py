"""Fault injection for real (issue 49): a second process, a real signal, a real read-only
folder, a real full disk, a real file-size limit. Nothing here is a mock.

The tools, handed to tests as the ``faults`` fixture:

- ``simcards(*args, env=..., timeout=...)``: ``python -m simcards ARGS`` as a new process,
  its CompletedProcess (text); ``start(*args)`` the same as a Popen, to signal or race it.
- ``read_only(folder)``: a context in which ``folder`` cannot be written, even by root (the
  suite runs as root in CI, and root ignores a folder's mode): a read-only bind mount of
  the folder over itself when this process may mount, else ``chmod a-w``.
- ``full_disk(folder, kib)``: a context in which ``folder`` is a tmpfs of ``kib`` KiB, so
  a write past it fails with ENOSPC (root only: else the test is not run here, and says why).
- ``file_size_limit(nbytes)``: a ``preexec_fn`` that sets RLIMIT_FSIZE in the child, as
  ``ulimit -f`` does (Python ignores SIGXFSZ, so a write past it raises EFBIG).
- ``one_line(done)``: asserts an error that a user reads: exit code 2, stderr one or two
  lines starting ``error:``, no traceback.
"""
from __future__ import annotations

import contextlib
import os
import resource
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import pytest


def _can_mount() -> bool:
    return os.geteuid() == 0 and Path("/proc/self/mountinfo").exists()


class Faults:
    @staticmethod
    def env(**extra: str) -> dict[str, str]:
        env = dict(os.environ)
        env.pop("COLUMNS", None)
        env["COLUMNS"] = "200"          # one error line stays one line
        env.update(extra)
        return env

    @staticmethod
    def simcards(*args: str, env: dict | None = None, timeout: float = 240, cwd=None,
                 preexec_fn=None) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "simcards", *map(str, args)], capture_output=True,
                              text=True, env=env or Faults.env(), timeout=timeout, cwd=cwd,
                              preexec_fn=preexec_fn)

    @staticmethod
    def start(*args: str, env: dict | None = None, cwd=None, preexec_fn=None) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-m", "simcards", *map(str, args)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=env or Faults.env(), cwd=cwd, preexec_fn=preexec_fn)

    @staticmethod
    @contextlib.contextmanager
    def read_only(folder: Path) -> Iterator[Path]:
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        if _can_mount():
            subprocess.run(["mount", "--bind", str(folder), str(folder)], check=True)
            try:
                subprocess.run(["mount", "-o", "remount,ro,bind", str(folder)], check=True)
                yield folder
            finally:
                subprocess.run(["umount", str(folder)], check=True)
        else:
            mode = folder.stat().st_mode
            folder.chmod(mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
            try:
                yield folder
            finally:
                folder.chmod(mode)

    @staticmethod
    @contextlib.contextmanager
    def full_disk(folder: Path, kib: int) -> Iterator[Path]:
        if not _can_mount():
            pytest.fail("a full disk is made with a small tmpfs, which needs root (CI runs as root)")
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={kib}k", "tmpfs", str(folder)], check=True)
        try:
            yield folder
        finally:
            subprocess.run(["umount", str(folder)], check=True)

    @staticmethod
    def file_size_limit(nbytes: int):
        def limit() -> None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (nbytes, nbytes))
        return limit

    @staticmethod
    def wait_for(predicate, timeout: float = 120, proc=None) -> None:
        """Until ``predicate()``; fails if ``proc`` ends first or the time runs out."""
        deadline = time.monotonic() + timeout
        while not predicate():
            if proc is not None and proc.poll() is not None:
                raise AssertionError(f"the process ended first: {proc.returncode}, {proc.stderr.read()}")
            assert time.monotonic() < deadline, "timed out"
            time.sleep(0.02)

    @staticmethod
    def locked_by(lock: Path, pid: int) -> bool:
        """Whether the lock file names ``pid`` as its holder (simcards.outputs.take_lock)."""
        try:
            return lock.read_text().strip() == str(pid)
        except OSError:
            return False

    @staticmethod
    def one_line(done: subprocess.CompletedProcess, *needles: str) -> str:
        err = done.stderr.strip()
        assert done.returncode == 2, f"exit {done.returncode}, expected 2; stderr:\n{done.stderr}"
        assert "Traceback" not in done.stderr, done.stderr
        lines = [ln for ln in err.splitlines() if ln.strip()]
        assert 1 <= len(lines) <= 2 and lines[0].startswith("error:"), done.stderr
        for needle in needles:
            assert needle in err, f"{needle!r} not in {err!r}"
        return err


@pytest.fixture
def faults() -> type[Faults]:
    return Faults
