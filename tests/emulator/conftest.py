"""Fixtures for the emulator's tests: a started emulator and a real PTB Bot talking to it."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest

# Reading RetryAfter.retry_after warns unless PTB uses timedeltas; tests run with -W error.
# (The root conftest sets it too; repeated here so this folder also runs on its own.)
os.environ.setdefault("PTB_TIMEDELTA", "true")

import telegram
from emu_support import TOKEN, FakeClock, make_bot

from bot.emulator import Emulator, FloodLimits


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def emu(clock: FakeClock) -> AsyncIterator[Emulator]:
    """An emulator without flood limits (tests about flood build their own)."""
    async with Emulator(token=TOKEN, flood=None, clock=clock) as emulator:
        yield emulator


@pytest.fixture
async def flood_emu(clock: FakeClock) -> AsyncIterator[Emulator]:
    async with Emulator(token=TOKEN, flood=FloodLimits(), clock=clock) as emulator:
        yield emulator


@pytest.fixture
async def bot(emu: Emulator) -> AsyncIterator[telegram.Bot]:
    async with make_bot(emu) as b:
        yield b
