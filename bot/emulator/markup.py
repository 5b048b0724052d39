"""Message content checks: text and parse mode, inline keyboards, rejected as Telegram does."""

from __future__ import annotations

from typing import Any

from . import errors
from .formatted import FormattedText, trim
from .html import HtmlError, parse_html
from .params import Params
from .state import Button

MAX_TEXT = 4096
MAX_CAPTION = 1024
MAX_CALLBACK_DATA_BYTES = 64
# Telegram refuses an inline keyboard of more than 100 buttons ("reply markup is too long",
# REPLY_MARKUP_TOO_LONG in older answers). Undocumented in the Bot API reference; the number
# is the one bot authors report (tginfo/Telegram-Limits, library issues).
MAX_INLINE_BUTTONS = 100


def caption_text(
    p: Params, *, strict_ampersand: bool, edit: bool = False
) -> tuple[FormattedText, str]:
    """A photo's or file's `caption` (optional: empty when absent), parsed like a text, up to
    1024."""
    if not p.get_str("caption"):
        return FormattedText("", ()), ""
    return message_text(p, strict_ampersand=strict_ampersand, name="caption", edit=edit)


def message_text(
    p: Params, *, strict_ampersand: bool, name: str = "text", edit: bool = False
) -> tuple[FormattedText, str]:
    """The visible text and entities of `text` (or `caption`), and it as sent (the HTML source).
    `edit`: for editMessageText/editMessageCaption, whose over-long refusals Telegram words
    otherwise (the server's MESSAGE_TOO_LONG / MEDIA_CAPTION_TOO_LONG, as bot authors report
    them, where sendMessage says "message is too long")."""
    caption = name == "caption"
    raw = p.get_str(name)
    if not raw:
        raise errors.bad_request("message text is empty")
    mode = (p.get_str("parse_mode") or "").lower()
    if not mode:
        entities = p.get_json("caption_entities" if caption else "entities") or []
        if not isinstance(entities, list):
            raise errors.bad_request("can't parse entities JSON object")
        formatted = FormattedText(raw, tuple(entities))
    elif mode == "html":
        try:
            formatted = parse_html(raw, strict_ampersand=strict_ampersand)
        except HtmlError as err:
            raise errors.bad_request(str(err)) from None
    elif mode in ("markdown", "markdownv2"):
        raise errors.bad_request(f"the emulator does not parse {p.get_str('parse_mode')}; use HTML")
    else:
        raise errors.bad_request("unsupported parse_mode")
    formatted = trim(formatted)
    if caption:
        if len(formatted.text) > MAX_CAPTION:
            raise errors.bad_request(
                "MEDIA_CAPTION_TOO_LONG" if edit else "message caption is too long"
            )
        return formatted, raw
    if not formatted.text:
        raise errors.bad_request("message text is empty")
    if len(formatted.text) > MAX_TEXT:
        raise errors.bad_request("MESSAGE_TOO_LONG" if edit else "message is too long")
    return formatted, raw


def _button(raw: Any, private: bool) -> Button:
    if not isinstance(raw, dict) or not isinstance(raw.get("text"), str):
        raise errors.bad_request(
            'can\'t parse inline keyboard button: Field "text" must be of type String'
        )
    if not raw["text"]:
        raise errors.bad_request("BUTTON_TEXT_INVALID")
    if "callback_data" in raw:
        data = raw["callback_data"]
        if (
            not isinstance(data, str)
            or not 1 <= len(data.encode("utf-8")) <= MAX_CALLBACK_DATA_BYTES
        ):
            raise errors.bad_request("BUTTON_DATA_INVALID")
        return Button(raw["text"], callback_data=data)
    if "url" in raw:
        url = raw["url"]
        if not isinstance(url, str) or not url.startswith(("http://", "https://", "tg://")):
            raise errors.bad_request(
                f"inline keyboard button URL '{url}' is invalid: Wrong HTTP URL"
            )
        return Button(raw["text"], url=url)
    if "switch_inline_query" in raw:
        query = raw["switch_inline_query"]
        if not isinstance(query, str):
            raise errors.bad_request(
                'can\'t parse inline keyboard button: Field "switch_inline_query" must be of '
                "type String"
            )
        return Button(raw["text"], switch_inline_query=query)
    if "web_app" in raw and not private:
        raise errors.bad_request("BUTTON_TYPE_INVALID")  # Mini App buttons: private chats only
    if len(raw) > 1:  # other kinds (login_url, web_app, switch_inline_query...): kept, not modelled
        return Button(raw["text"])
    raise errors.bad_request(
        "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"
    )


def reply_markup(
    p: Params, *, private: bool = True, edit: bool = False
) -> tuple[dict[str, Any] | None, tuple[tuple[Button, ...], ...]]:
    """The markup as stored (None when absent) and its inline buttons, validated (`private`:
    the chat is a private one, where Telegram allows `web_app` buttons; `edit`: an edit
    method's, which takes an inline keyboard only)."""
    markup = p.get_json("reply_markup", "reply keyboard markup")
    if markup is None:
        return None, ()
    if not isinstance(markup, dict):
        raise errors.bad_request("can't parse reply keyboard markup JSON object")
    if edit and "inline_keyboard" not in markup:
        raise errors.bad_request("inline keyboard expected")
    if "inline_keyboard" not in markup:
        placeholder = markup.get("input_field_placeholder")
        if placeholder is not None and not (
            isinstance(placeholder, str) and 1 <= len(placeholder) <= 64
        ):
            raise errors.bad_request("can't parse reply keyboard markup: input_field_placeholder")
        return markup, ()  # reply keyboards, remove_keyboard, force_reply: accepted as they are
    rows = markup["inline_keyboard"]
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise errors.bad_request(
            'can\'t parse inline keyboard: Field "inline_keyboard" must be of type Array'
        )
    if sum(len(row) for row in rows) > MAX_INLINE_BUTTONS:
        raise errors.bad_request("reply markup is too long")
    buttons = tuple(tuple(_button(b, private) for b in row) for row in rows if row)
    if not buttons:
        return None, ()  # an empty keyboard is no keyboard, as in Telegram's answers
    return {"inline_keyboard": [row for row in rows if row]}, buttons
