"""The framework's ceiling: a bare PTB bot that answers every tap with one popup and one edit.

No content, no storage, no logic beyond flipping between a "question" and a "next" screen so the
benchmark's learners can drive it exactly as they drive quizbot: `/start <quiz>` shows a question
with answer buttons (`ans:0:<q>:<pos>`); an answer tap edits it into a screen with a "next" button;
"next" edits it back into the following question.
"""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ParseMode
from telegram.ext import (
    AIORateLimiter,
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    Defaults,
)

# Both bots run as many updates at once: quizbot's BotOptions.concurrent_updates (a test holds
# them equal; not imported, so the baseline process loads none of quizbot). quizbot also keeps
# one chat's updates in arrival order (bot/tg/wire/update_order.py); the baseline stays stock PTB on
# purpose, so that ordering's cost is counted against quizbot. The bench's learners each wait
# for the bot's answer before their next tap, so the order changes no work, only its bookkeeping.
CONCURRENT_UPDATES = 64


def _question(q: int) -> tuple[str, InlineKeyboardMarkup]:
    buttons = [
        InlineKeyboardButton(letter, callback_data=f"ans:0:{q}:{pos}")
        for pos, letter in enumerate("ABCD")
    ]
    return f"<b>Question {q + 1}</b>\nPick one.", InlineKeyboardMarkup([buttons])


def _next(q: int) -> tuple[str, InlineKeyboardMarkup]:
    button = InlineKeyboardButton("Next", callback_data=f"next:0:{q + 1}")
    return f"<b>Question {q + 1}</b>\nAnswered.", InlineKeyboardMarkup([[button]])


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    if update.effective_message is None:
        return
    text, keyboard = _question(0)
    await update.effective_message.reply_text(text, reply_markup=keyboard)


async def tap(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    if query is None or not query.data:
        return
    kind, _, q, *_ = query.data.split(":")
    await query.answer("✅ Right!")
    text, keyboard = _next(int(q)) if kind == "ans" else _question(int(q))
    await query.edit_message_text(text, reply_markup=keyboard)


def build(
    token: str,
    base_url: str,
    *,
    rate_limit: bool,
    concurrency: int = 0,
    transport: str = "httpx",
) -> Application:  # type: ignore[type-arg]
    """`transport`: "httpx" is stock PTB; "aiohttp" the same bot on quizbot's lean transport
    (the only quizbot module this process loads then is bot.tg.wire.transport)."""
    concurrency = concurrency or CONCURRENT_UPDATES
    builder = (
        ApplicationBuilder()
        .token(token)
        .base_url(base_url)
        .defaults(Defaults(parse_mode=ParseMode.HTML))
        .concurrent_updates(concurrency)
    )
    if transport == "httpx":
        builder = builder.connection_pool_size(concurrency).pool_timeout(10)
    else:
        from bot.tg.wire.transport import use_transport

        builder = use_transport(
            builder, transport, connection_pool_size=concurrency, pool_timeout=10
        )
    app = (
        builder.rate_limiter(AIORateLimiter(max_retries=5)).build()
        if rate_limit
        else builder.build()
    )
    app.add_handler(CommandHandler("start", start))
    app.add_handler(CallbackQueryHandler(tap))
    return app
