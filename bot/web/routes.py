"""The dashboard's HTTP side (aiohttp): a static shell, pages rendered on the server, CSV files.

Nothing but the shell and its static files is served without proof of who is asking: `/api/view`
wants the Mini App initData in `Authorization: tma <initData>` (validated as Telegram specifies,
see bot/web/auth.py), a CSV link a download token issued with the page. A group's page and files
are for that group's admins only (the bot's own admin check, behind `AdminGate`); a learner's
page shows the one who asks and nobody else; the content preview shows answer keys only to those
`DashboardService.answer_keys` names. Refusals are logged with their reason, never with the
data, and only while the log's budget lasts (bot/log_budget.py): anyone can send them.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib import resources
from urllib.parse import urlencode

from aiohttp import web

from bot.core.clock import Clock
from bot.core.dashboard_math import chat_of
from bot.i18n import SUPPORTED_LANGUAGES, Translator, choose_language, translator
from bot.log_budget import LogBudget, log_refusal
from bot.usecases.dashboard import DashboardService
from bot.web import csv_files, group_page, learner_page, preview_page
from bot.web.admin_gate import Access, AdminGate, IsAdmin
from bot.web.auth import (
    DEFAULT_MAX_AGE,
    AuthError,
    WebAppUser,
    check_download_token,
    download_token,
    validate_init_data,
)
from bot.web.html_parts import esc

log = logging.getLogger(__name__)
MAX_TARGET = 2048  # path and query: our links are a few hundred characters at most
STATIC = {"app.js": "text/javascript", "app.css": "text/css"}
HEADERS = {
    # Telegram's web clients show Mini Apps in a frame; nobody else may.
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'self' https://web.telegram.org https://*.telegram.org",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}


@dataclass
class WebOptions:
    token: str  # the bot's: initData is signed with it
    service: DashboardService
    is_admin: IsAdmin
    default_language: str = "en"
    max_age: float = DEFAULT_MAX_AGE
    clock: Clock = time.time


def _static(name: str) -> bytes:
    return resources.files("bot.web").joinpath("static", name).read_bytes()


class Dashboard:
    def __init__(self, options: WebOptions) -> None:
        self.o = options
        self.shells = _shells(_static("index.html").decode("utf-8"))
        self.files = {name: _static(name) for name in STATIC}
        self.gate = AdminGate(options.is_admin, options.service.known_group, options.clock)
        self.refusals = LogBudget()

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._headers, self._bounded])
        app.router.add_get("/", self.index)
        app.router.add_get("/static/{name}", self.static)
        app.router.add_get("/api/view", self.view)
        app.router.add_get("/csv/group/{chat}/{section}.csv", self.csv)
        app.router.add_get("/healthz", self.health)
        return app

    @web.middleware
    async def _headers(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        try:
            response = await handler(request)
        except web.HTTPException as refused:  # a 404, a 414: answered as a page is
            refused.headers.update(HEADERS)
            raise
        response.headers.update(HEADERS)
        return response

    @web.middleware
    async def _bounded(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """No link of ours is this long: refused before anything reads it further."""
        if len(request.raw_path) > MAX_TARGET:
            self._log_refusal(request, f"a {len(request.raw_path)}-character address")
            raise web.HTTPRequestURITooLong()
        return await handler(request)

    def _log_refusal(self, request: web.Request, reason: object) -> None:
        log_refusal(log, self.refusals, "dashboard: refused %s from %s: %s",
                    request.path[:80], request.remote, reason)  # fmt: skip

    # -- unauthenticated: the shell only ---------------------------------------------------------

    async def index(self, request: web.Request) -> web.Response:
        """The shell, in the phone's language (Accept-Language: no initData is sent for it):
        what the page says if its own request fails, when no server words can reach it."""
        lang = choose_language(stored=None, telegram_code=_accept(request),
                               default=self.o.default_language)  # fmt: skip
        response = web.Response(text=self.shells[lang], content_type="text/html", charset="utf-8")
        response.headers["Content-Language"] = lang
        response.headers["Vary"] = "Accept-Language"
        return response

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC:
            raise web.HTTPNotFound()
        return web.Response(body=self.files[name], content_type=STATIC[name], charset="utf-8")

    async def health(self, request: web.Request) -> web.Response:
        return web.Response(text="ok")

    # -- pages -------------------------------------------------------------------------------------

    def _refuse(self, request: web.Request, reason: AuthError) -> web.Response:
        self._log_refusal(request, reason)
        tr = translator(choose_language(stored=None, telegram_code=_accept(request),
                                        default=self.o.default_language))  # fmt: skip
        text = tr._("Open this page from the bot in Telegram.")
        return self._page(tr, _refusal("🔒", text), status=401)

    def _page(self, tr: Translator, body: str, status: int = 200) -> web.Response:
        response = web.Response(text=body, status=status, content_type="text/html", charset="utf-8")
        response.headers["Content-Language"] = tr.lang
        response.headers["Cache-Control"] = "no-store"
        return response

    async def _viewer(self, request: web.Request) -> WebAppUser:
        scheme, _, data = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() != "tma":
            raise AuthError("no initData")
        return validate_init_data(data.strip(), self.o.token, max_age=self.o.max_age,
                                  now=self.o.clock())  # fmt: skip

    async def view(self, request: web.Request) -> web.Response:
        try:
            viewer = await self._viewer(request)
        except AuthError as exc:
            return self._refuse(request, exc)
        stored = await self.o.service.stored_language(viewer.id)
        tr = translator(choose_language(stored=stored, telegram_code=viewer.language_code,
                                        default=self.o.default_language))  # fmt: skip
        query = request.query
        chat_id = chat_of(query.get("chat")) or chat_of(viewer.start_param)
        if chat_id is not None:  # checked, shown and linked under the group's id of today
            chat_id = await self.o.service.current_chat(chat_id)
        view = query.get("view") or ("group" if chat_id is not None else "learner")
        now = self.o.clock()
        if view == "group" and chat_id is not None:
            nav = self._nav(tr, "group", chat_id)
            access = await self.gate.check(chat_id, viewer.id)
            if access is Access.TOO_MANY:
                self._log_refusal(request, f"user {viewer.id} made too many admin checks")
                text = tr._("Too many groups asked about in a short time: try again in a minute.")
                return self._page(tr, nav + _refusal("⏳", text), status=429)
            if access is not Access.ADMIN:
                self._log_refusal(request, f"user {viewer.id} is not an admin of {chat_id}")
                text = tr._("Only the group's admins can see this page.")
                return self._page(tr, nav + _refusal("🔒", text), status=403)
            page = await self.o.service.group(chat_id)
            ticket = download_token(self.o.token, viewer.id, f"group:{chat_id}", now=now)
            query_string = urlencode({"t": ticket, "lang": tr.lang})
            csv = {
                name: f"/csv/group/{chat_id}/{name}.csv?{query_string}"
                for name in csv_files.SECTIONS
            }
            return self._page(tr, group_page.render(tr, page, nav, csv))
        if view == "preview":
            nav = self._nav(tr, "preview", chat_id)
            quiz = self.o.service.catalog.quiz(query.get("quiz", ""))
            if quiz is None:
                link = "/?" + urlencode(_preview_query(chat_id)) + "&quiz={quiz}"
                return self._page(tr, preview_page.quiz_list(tr, self.o.service.catalog, nav, link))
            # A group's admin sees the keys when the preview is opened from the group's page
            # (its `chat`), checked as that page checks; a spent budget only hides the keys.
            admin = (
                chat_id is not None and await self.gate.check(chat_id, viewer.id) is Access.ADMIN
            )
            keys = await self.o.service.answer_keys(viewer.id, quiz, group_admin=admin)
            return self._page(tr, preview_page.render(tr, quiz, nav, keys))
        nav = self._nav(tr, "learner", chat_id)
        data = await self.o.service.learner(viewer.id)
        return self._page(tr, learner_page.render(tr, data, data.zone, now, nav))

    def _nav(self, tr: Translator, current: str, chat_id: int | None) -> str:
        links = [("learner", "/?view=learner", tr._("My progress"))]
        if chat_id is not None:
            links.append(("group", f"/?view=group&chat={chat_id}", tr._("Group")))
        links.append(("preview", "/?" + urlencode(_preview_query(chat_id)), tr._("Quiz preview")))
        items = "".join(
            f'<a href="{esc(href)}"{" aria-current=page" if key == current else ""}>'
            f"{esc(label)}</a>"
            for key, href, label in links
        )
        return f"<nav>{items}</nav>"

    # -- files ---------------------------------------------------------------------------------

    async def csv(self, request: web.Request) -> web.Response:
        section = request.match_info["section"]
        chat_id = chat_of(request.match_info["chat"])
        if section not in csv_files.WRITERS or chat_id is None:
            raise web.HTTPNotFound()
        try:
            user_id = check_download_token(self.o.token, request.query.get("t", ""),
                                           f"group:{chat_id}", now=self.o.clock())  # fmt: skip
        except AuthError as exc:
            self._log_refusal(request, exc)
            raise web.HTTPUnauthorized() from None
        access = await self.gate.check(chat_id, user_id)
        if access is Access.TOO_MANY:
            raise web.HTTPTooManyRequests()
        if access is not Access.ADMIN:
            raise web.HTTPForbidden()
        lang = translator(request.query.get("lang", self.o.default_language)).lang
        page = await self.o.service.group(chat_id)
        body = csv_files.WRITERS[section](page, lang)
        return web.Response(
            text=body,
            content_type="text/csv",
            charset="utf-8",
            headers={
                "Content-Disposition": f'attachment; filename="group{chat_id}-{section}.csv"',
                "Cache-Control": "no-store",
            },
        )


def _preview_query(chat_id: int | None) -> dict[str, str]:
    """The preview's address keeps the group it was opened from (its admins see the keys)."""
    return {"view": "preview"} | ({"chat": str(chat_id)} if chat_id is not None else {})


def _accept(request: web.Request) -> str | None:
    header = request.headers.get("Accept-Language", "")
    return header.split(",")[0].split(";")[0].strip() or None


def _shells(shell: str) -> dict[str, str]:
    """The page shell in each language, made once: the words it shows if its own request
    fails, when no server words can reach it."""
    made = {}
    for lang in SUPPORTED_LANGUAGES:
        tr = translator(lang)
        failed = tr._("The page could not load: check your connection, then try again.")
        text = shell.replace("{lang}", lang).replace("{failed}", esc(failed))
        made[lang] = text.replace("{retry}", esc(tr._("Try again")))
    return made


def _refusal(icon: str, text: str) -> str:
    """A refused page's one sentence, as its heading: every page has one, so the tab's title
    says why (app.js titles the tab after the page's h1) and a screen reader lands on it."""
    return f'<h1 class="error">{icon} {esc(text)}</h1>'
