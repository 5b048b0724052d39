"""The buttons of a select-all question (kind: multiple): one toggle per option and Submit.

In a private chat the learner's own message shows their selection (☑ A). In a group the shared
message never does: every member sees the same ☐ buttons, and what they selected is told to
them alone in the tap's popup (bot/tg/select_render.py), so nobody can copy a neighbour.
Buttons carry only the displayed position; the selection is kept server-side
(bot/store/selections.py).
"""

from __future__ import annotations

from collections.abc import Collection

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import Translator
from bot.tg import callbacks as cb

LETTERS = "ABCDEFGHIJ"
OFF, ON = "☐", "☑"
PER_ROW = 4


def hint(tr: Translator) -> str:
    """The line under a select-all question's options."""
    return tr._("☑️ Select every right answer, then tap Submit.")


def keyboard(
    tr: Translator,
    target_id: int,
    index: int,
    count: int,
    selected: Collection[int] = (),
    *,
    group: bool = False,
) -> InlineKeyboardMarkup:
    """Toggles for `count` displayed positions (`selected`: the positions ticked, private chats
    only) and a Submit row; `target_id` is the attempt (private) or the run (group)."""
    toggles = []
    for pos in range(count):
        mark = ON if pos in selected and not group else OFF
        data: cb.Callback = (
            cb.GroupToggle(target_id, index, pos) if group else cb.Toggle(target_id, index, pos)
        )
        toggles.append(
            InlineKeyboardButton(f"{mark} {LETTERS[pos]}", callback_data=cb.encode(data))
        )
    rows = [toggles[i : i + PER_ROW] for i in range(0, len(toggles), PER_ROW)]
    submit: cb.Callback = cb.GroupSubmit(target_id, index) if group else cb.Submit(target_id, index)
    rows.append([InlineKeyboardButton(tr._("📨 Submit"), callback_data=cb.encode(submit))])
    return InlineKeyboardMarkup(rows)


def round_keyboard(
    tr: Translator,
    round_id: int,
    index: int,
    item_id: int,
    order: str,
    selected: Collection[int] = (),
) -> InlineKeyboardMarkup:
    """Toggles and Submit of a select-all card in a review or practice round (always a private
    chat: the learner's own ☑ are shown). `order`: the card's displayed order, one digit each."""
    toggles = [
        InlineKeyboardButton(
            f"{ON if pos in selected else OFF} {LETTERS[pos]}",
            callback_data=cb.encode(cb.ReviewToggle(round_id, index, item_id, order, pos)),
        )
        for pos in range(len(order))
    ]
    rows = [toggles[i : i + PER_ROW] for i in range(0, len(toggles), PER_ROW)]
    submit = cb.ReviewSubmit(round_id, index, item_id, order)
    rows.append([InlineKeyboardButton(tr._("📨 Submit"), callback_data=cb.encode(submit))])
    return InlineKeyboardMarkup(rows)
