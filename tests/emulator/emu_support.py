"""Helpers the emulator's tests share (imported by name: the tests folders are not packages)."""

from __future__ import annotations

import ssl

import telegram
from telegram.request import HTTPXRequest

from bot.emulator import Emulator

TOKEN = "123456:TEST-token"


class FakeClock:
    """A clock tests move by hand: flood windows and the callback answer window follow it."""

    def __init__(self, start: float = 1_750_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


# httpx loads the CA bundle for every client (~50 ms); one shared context makes a Bot cheap.
_SSL = ssl.create_default_context()


def fast_request() -> HTTPXRequest:
    return HTTPXRequest(httpx_kwargs={"verify": _SSL})


def make_bot(emulator: Emulator) -> telegram.Bot:
    return telegram.Bot(
        TOKEN,
        base_url=emulator.base_url,
        request=fast_request(),
        get_updates_request=fast_request(),
    )
