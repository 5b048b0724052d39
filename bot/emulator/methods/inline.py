"""answerInlineQuery (inline mode: bot/emulator/inline.py)."""

from __future__ import annotations

from .. import errors
from ..markup import reply_markup
from ..params import Params
from ..world import World
from .registry import method


@method("answerInlineQuery")
async def answer_inline_query(world: World, p: Params) -> bool:
    query_id = p.get_str("inline_query_id") or ""
    results = p.get_json("results", "inline query results")
    for result in results if isinstance(results, list) else []:
        markup = result.get("reply_markup") if isinstance(result, dict) else None
        if markup is not None:  # buttons are checked as a message's are (a group's rules)
            reply_markup(Params({"reply_markup": markup}), private=False)
    button = p.get_json("button")
    if button is not None and not isinstance(button, dict):
        raise errors.bad_request("can't parse button JSON object")
    world.inline.answer(
        query_id,
        results,
        world.clock(),
        cache_time=p.get_int("cache_time"),
        is_personal=p.get_bool("is_personal"),
        next_offset=p.get_str("next_offset") or "",
        button=button,
    )
    return True
