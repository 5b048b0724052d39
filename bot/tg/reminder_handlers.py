"""Handlers for a learner's /timezone and /remind (private), their buttons, and the daily
reminder timers.

Reminders are daily timers on the one timer seam (bot/tg/wire/timer_backends.py): PTB's JobQueue in
one process, rebuilt from the store at start-up; durable rows with several workers, re-armed
before each firing and claimed by one worker, so a reminder is sent once. The timer's wall time
is in the learner's zone: changing the zone re-arms it at the same local time.

The reminder's button starts the review exactly as /review does (`start_review`, the progress
handlers' entry point); like the zone buttons it carries the learner's id and works only for
that learner, in their own private chat.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from telegram import Bot, CallbackQuery, Message, Update
from telegram.error import TelegramError

from bot.core.clock import Clock
from bot.i18n import translator
from bot.store.reviews import Reminder
from bot.tg import callbacks as cb
from bot.tg import reminder_render as rr
from bot.tg.context import BotContext
from bot.tg.screen_render import Screen
from bot.tg.screen_send import acknowledge, drop_keyboard, edit, send
from bot.tg.wire.timer_backends import Timers
from bot.usecases.learner_profile import Learner, Learners
from bot.usecases.reminders import (
    BadTime,
    LearnerReminders,
    RemindOff,
    RemindOn,
    RemindUsage,
    UnknownZone,
    ZoneSet,
    ZoneShown,
)

log = logging.getLogger(__name__)
StartReview = Callable[[Message, Learner], Awaitable[None]]  # what /review does


async def arm(timers: Timers, reminder: Reminder) -> None:
    """The learner's reminder as a daily timer `remind:<user>` at its wall time in its zone;
    arming it again (a new time or zone) replaces it, so there is one per learner."""
    hour, minute = (int(part) for part in reminder.at_time.split(":"))
    await timers.daily(
        "remind", reminder.user_id, (hour, minute), reminder.timezone, tuple(range(7))
    )


class ReminderHandlers:
    def __init__(
        self,
        bot: Callable[[], Bot],
        reminders: LearnerReminders,
        learners: Learners,
        timers: Timers,
        start_review: StartReview,
        clock: Clock,
    ) -> None:
        self._bot = bot
        self.cases = reminders
        self.learners = learners
        self.timers = timers
        self.timers.on("remind", self.send_reminder)
        self.start_review = start_review
        self.clock = clock

    # -- commands -----------------------------------------------------------------------------

    async def timezone(self, update: Update, context: BotContext) -> None:
        message, learner, tr = update.effective_message, context.learner, context.tr
        if message is None:
            return
        match await self.cases.timezone(learner.user_id, context.args or []):
            case ZoneShown() as shown:
                await send(message, rr.zone_shown(tr, shown, learner.user_id, self.clock()))
            case ZoneSet() as done:
                await self._rearm(done)
                await send(message, Screen(rr.zone_set(tr, done, self.clock())))
            case UnknownZone(typed, suggestion):
                await send(message, rr.zone_unknown(tr, typed, suggestion, learner.user_id))

    async def remind(self, update: Update, context: BotContext) -> None:
        message, user_id, tr = update.effective_message, context.learner.user_id, context.tr
        if message is None:
            return
        match await self.cases.remind(user_id, context.args or []):
            case RemindOff(had_one):
                await self.unregister(user_id)
                await send(message, Screen(rr.remind_off(tr, had_one)))
            case BadTime(typed):
                await send(message, Screen(rr.bad_time(tr, typed)))
            case RemindUsage(current, zone, typed):
                await send(message, Screen(rr.remind_usage(tr, current, zone, typed)))
            case RemindOn(reminder):
                await self.register(reminder)
                await send(message, Screen(rr.remind_on(tr, reminder)))

    # -- buttons ------------------------------------------------------------------------------

    async def callback(self, query: CallbackQuery, learner: Learner, data: cb.Callback) -> None:
        """A zone or reminder button (the router checked the chat is private). Each carries the
        learner it was made for: anyone else's tap, or one outside their own chat, is refused."""
        tr = translator(learner.lang)
        message = query.message if isinstance(query.message, Message) else None
        review = isinstance(data, cb.ReminderReview)
        refusal = rr.reminder_not_yours(tr) if review else rr.zone_button_stale(tr)
        if (
            not isinstance(data, cb.ZonePick | cb.ZoneSuggested | cb.ReminderReview)
            or data.user_id != learner.user_id
            or message is None
            or message.chat.id != learner.user_id
        ):
            await acknowledge(query, refusal)
            return
        if isinstance(data, cb.ReminderReview):
            await acknowledge(query)
            await drop_keyboard(query)  # one review per reminder; /review is always there
            await self.start_review(message, learner)
            return
        # A suggested zone is checked by choose_zone like a typed one (the data may be forged).
        zone = data.zone if isinstance(data, cb.ZoneSuggested) else self.cases.offered(data.index)
        if zone is None:  # a button number we never offered
            await acknowledge(query, rr.zone_button_expired(tr))
            return
        chosen = await self.cases.choose_zone(learner.user_id, zone)
        if isinstance(chosen, UnknownZone):  # the learner's own button: say why, not "not yours"
            await acknowledge(query, rr.zone_refused(tr, chosen.typed, chosen.suggestion))
            return
        await self._rearm(chosen)
        await acknowledge(query)
        await edit(query, Screen(rr.zone_set(tr, chosen, self.clock())))

    # -- daily reminders ----------------------------------------------------------------------

    async def _rearm(self, done: ZoneSet) -> None:
        if done.reminder is not None:
            await self.register(done.reminder)  # same local time, the new zone

    async def register(self, reminder: Reminder) -> None:
        await arm(self.timers, reminder)

    async def unregister(self, user_id: int) -> None:
        await self.timers.cancel("remind", user_id)

    async def restore(self) -> None:
        """Arm every reminder from the store (JobQueue forgets them on restart; durable timers
        are simply re-armed, which keeps one row per learner)."""
        for reminder in await self.cases.reminders():
            await self.register(reminder)

    async def send_reminder(self, user_id: int) -> bool:
        """Remind one learner if reviews are due, or their streak breaks tonight (a short note);
        False when there was nothing to say or sending failed."""
        nudge = await self.cases.nudge(user_id)
        if nudge is None:
            return False
        tr = translator(await self.learners.language(user_id))
        screen = rr.reminder(tr, nudge, user_id)
        try:
            await self._bot().send_message(user_id, screen.text, reply_markup=screen.keyboard)
        except TelegramError as exc:
            log.info("reminder to %s not sent: %s", user_id, exc)
            return False
        return True
