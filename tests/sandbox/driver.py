"""Drive `quizbot sandbox` as a subprocess through its stdin, the way a person types into it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

from bot.content import default_content_dir, load_catalog

PROMPT_END = " › "


class Sandbox:
    """A running sandbox: write lines, read what the terminal shows up to the next prompt."""

    def __init__(self, data: Path, *args: str) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONIOENCODING": "utf-8"}
        # The "--" gets the options past the top-level `quizbot` parser (see bot/sandbox).
        command = [sys.executable, "-m", "bot", "sandbox", "--", "--data", str(data), *args]
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
        )
        self._out = bytearray()
        self._cond = threading.Condition()
        self._read = 0  # how much of the output the test has looked at
        self._eof = False
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        while chunk := os.read(self.proc.stdout.fileno(), 65536):
            with self._cond:
                self._out += chunk
                self._cond.notify_all()
        with self._cond:
            self._eof = True
            self._cond.notify_all()

    @property
    def output(self) -> str:
        with self._cond:
            return self._out.decode("utf-8", "replace")

    def _until(self, done: re.Pattern[str] | str, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                text = self._out[self._read :].decode("utf-8", "replace")
                match = re.search(done, text, re.S) if isinstance(done, re.Pattern) else None
                if match is not None or (isinstance(done, str) and text.endswith(done)):
                    end = match.end() if match is not None else len(text)
                    self._read += len(text[:end].encode("utf-8"))
                    return text[:end]
                left = deadline - time.monotonic()
                if left <= 0 or self._eof:
                    stderr = self.stderr_now()
                    raise AssertionError(
                        f"sandbox did not show {done!r} within {timeout}s; it showed:\n"
                        f"{text}\n--- stderr ---\n{stderr}"
                    )
                self._cond.wait(min(left, 0.1))

    def prompt(self, timeout: float = 15) -> str:
        """Everything shown up to the next prompt."""
        return self._until(PROMPT_END, timeout)

    def expect(self, pattern: str, timeout: float = 15) -> str:
        return self._until(re.compile(pattern), timeout)

    def type(self, line: str, timeout: float = 15) -> str:
        """Type a line and press Enter; returns what the terminal shows until the next prompt."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()
        return self.prompt(timeout)

    def send(self, line: str) -> None:
        """Type a line without waiting for the prompt (when the bot also speaks on its own)."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def wait_output(self, pattern: str, timeout: float = 15) -> re.Match[str]:
        """The first match of `pattern` anywhere in the output so far, waiting for it."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                text = self._out.decode("utf-8", "replace")
                match = re.search(pattern, text, re.S)
                if match is not None:
                    return match
                left = deadline - time.monotonic()
                if left <= 0 or self._eof:
                    raise AssertionError(
                        f"sandbox did not show {pattern!r} within {timeout}s; it showed:\n"
                        f"{text[-3000:]}\n--- stderr ---\n{self.stderr_now()}"
                    )
                self._cond.wait(min(left, 0.1))

    def quit(self, timeout: float = 15) -> int:
        """Type :quit; the exit code."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(b":quit\n")
        self.proc.stdin.flush()
        return self.proc.wait(timeout)

    def close_input(self, timeout: float = 15) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        return self.proc.wait(timeout)

    def stderr_now(self) -> str:
        if self.proc.poll() is None:
            return "(still running)"
        assert self.proc.stderr is not None
        return self.proc.stderr.read().decode("utf-8", "replace")

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)


def correct_number(shown: str, quiz_id: str, index: int) -> int:
    """Which button (1-4) is right, reading the options as the terminal shows them."""
    quiz = load_catalog(default_content_dir()).quiz(quiz_id)
    assert quiz is not None
    question = quiz.questions[index]
    right = question.options[question.correct].text.get("en")
    options = re.findall(r"^│ \*([A-D])\.\* (.*)$", shown, re.M)
    assert len(options) == len(question.options), shown
    for position, (_, text) in enumerate(options):
        if text == right:
            return position + 1
    raise AssertionError(f"{right!r} not among the options shown:\n{shown}")


def correct_numbers(shown: str, quiz_id: str, index: int) -> list[int]:
    """Which buttons (1-4) are right, reading the options as the terminal shows them: one for
    a single-answer question, every right option of a select-all one (kind: multiple)."""
    quiz = load_catalog(default_content_dir()).quiz(quiz_id)
    assert quiz is not None
    question = quiz.questions[index]
    options = re.findall(r"^│ \*([A-D])\.\* (.*)$", shown, re.M)
    assert len(options) == len(question.options), shown
    rights = {question.options[i].text.get("en") for i in question.key}
    return [position + 1 for position, (_, text) in enumerate(options) if text in rights]
