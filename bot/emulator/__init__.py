"""A local Telegram Bot API over HTTP for tests, the offline sandbox and the benchmark.

python-telegram-bot talks to it through its real HTTP stack
(`ApplicationBuilder().base_url(emu.base_url)`); the driver (`emu.user(...)`, `ChatView`) acts as
Telegram users and reads what each chat shows.
"""

from .driver import ChatView, Mark, SimUser, TapTimeout
from .emulator import Emulator
from .errors import ApiError
from .flood import FloodLimits
from .inline import InlineAnswer
from .state import Button, EmuMessage
from .world import CallbackAnswer, RequestRecord, Stats

__all__ = [
    "ApiError",
    "Button",
    "CallbackAnswer",
    "ChatView",
    "EmuMessage",
    "Emulator",
    "FloodLimits",
    "InlineAnswer",
    "Mark",
    "RequestRecord",
    "SimUser",
    "Stats",
    "TapTimeout",
]
