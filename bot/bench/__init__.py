"""`quizbot bench`: quizbot against a bare python-telegram-bot bot on the local emulator.

See BENCHMARKS.md for what is measured, how, and the figures of a reference run.
"""

from bot.bench.cli import main

__all__ = ["main"]
