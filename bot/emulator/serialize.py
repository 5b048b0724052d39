"""Bot API JSON shapes (User, Chat, ChatFullInfo, Message, ChatMember) built from the state.

Every shape here round-trips through python-telegram-bot's `de_json` (tests hold it to that).
"""

from __future__ import annotations

from typing import Any

from .state import GROUP_ANONYMOUS_BOT_ID, RESTRICTED_GONE, ChatState, EmuMessage, UserState

ANONYMOUS_ADMIN = UserState(
    GROUP_ANONYMOUS_BOT_ID, "Group", username="GroupAnonymousBot", is_bot=True, started=True
)


def user_json(user: UserState) -> dict[str, Any]:
    data: dict[str, Any] = {"id": user.id, "is_bot": user.is_bot, "first_name": user.first_name}
    if user.last_name:
        data["last_name"] = user.last_name
    if user.username:
        data["username"] = user.username
    if user.language_code and not user.is_bot:
        data["language_code"] = user.language_code
    return data


def me_json(bot: UserState, *, inline: bool = False) -> dict[str, Any]:
    """getMe: the bot's User with the capability flags only getMe returns (`inline`: inline
    mode switched on with @BotFather's /setinline)."""
    return {
        **user_json(bot),
        "can_join_groups": True,
        "can_read_all_group_messages": False,
        "supports_inline_queries": inline,
        "can_connect_to_business": False,
        "has_main_web_app": False,
    }


def chat_json(chat: ChatState) -> dict[str, Any]:
    if chat.type == "private":
        assert chat.user is not None
        data: dict[str, Any] = {
            "id": chat.id,
            "type": "private",
            "first_name": chat.user.first_name,
        }
        if chat.user.last_name:
            data["last_name"] = chat.user.last_name
        if chat.user.username:
            data["username"] = chat.user.username
        return data
    data = {"id": chat.id, "type": chat.type, "title": chat.title or ""}
    if chat.is_forum:
        data["is_forum"] = True
    if chat.type == "group":
        data["all_members_are_administrators"] = False
    return data


def chat_full_json(chat: ChatState) -> dict[str, Any]:
    """getChat: ChatFullInfo, with the fields Bot API 10 makes required."""
    return {
        **{k: v for k, v in chat_json(chat).items() if k != "all_members_are_administrators"},
        "accent_color_id": chat.id % 7,
        "max_reaction_count": 11,
        "accepted_gift_types": {
            "unlimited_gifts": False,
            "limited_gifts": False,
            "unique_gifts": False,
            "premium_subscription": False,
            "gifts_from_channels": False,
        },
    }


def message_json(
    msg: EmuMessage, chat: ChatState, sender: UserState, *, with_reply: bool = True
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "message_id": msg.message_id,
        "from": user_json(sender),
        "date": msg.date,
        "chat": chat_json(chat),
    }
    if msg.sender_chat_id is not None:
        data["sender_chat"] = chat_json(chat)
    if msg.thread_id is not None:  # in a forum topic (General's messages carry none)
        data["message_thread_id"] = msg.thread_id
        data["is_topic_message"] = True
    if msg.edit_date is not None:
        data["edit_date"] = msg.edit_date
    if msg.service:
        data.update(msg.service)
    elif msg.attachment is not None:
        data.update(msg.attachment)
        if msg.text:
            data["caption"] = msg.text
        if msg.entities:  # a command as a photo's caption, as a client marks it
            data["caption_entities"] = [dict(e) for e in msg.entities]
    elif msg.document is not None or msg.photo is not None:
        if msg.photo is not None:
            data["photo"] = [dict(size) for size in msg.photo]
        else:
            data["document"] = msg.document
        if msg.text:
            data["caption"] = msg.text
        if msg.entities:
            data["caption_entities"] = [dict(e) for e in msg.entities]
    else:
        data["text"] = msg.text
        if msg.entities:
            data["entities"] = [dict(e) for e in msg.entities]
    if msg.reply_markup is not None and "inline_keyboard" in msg.reply_markup:
        data["reply_markup"] = msg.reply_markup
    topic = chat.messages.get(msg.thread_id or 0)
    if with_reply and msg.reply_to_message_id is None and topic is not None and not msg.service:
        # A topic's message that replies to nothing replies to the topic's creation, which
        # carries the topic's name (as Telegram sends it).
        data["reply_to_message"] = {"message_id": topic.message_id, "date": topic.date,
                                    "chat": chat_json(chat), "message_thread_id": topic.message_id,
                                    "is_topic_message": True, **(topic.service or {})}  # fmt: skip
    if with_reply and msg.reply_to_message_id is not None:
        replied = chat.messages.get(msg.reply_to_message_id)
        if replied is not None and not replied.deleted:
            data["reply_to_message"] = {"message_id": replied.message_id, "date": replied.date,
                                        "chat": chat_json(chat)}  # fmt: skip
            if replied.media:  # the file and its caption, as Telegram nests it
                if replied.photo is not None:
                    data["reply_to_message"]["photo"] = [dict(s) for s in replied.photo]
                else:
                    data["reply_to_message"]["document"] = replied.document
                if replied.text:
                    data["reply_to_message"]["caption"] = replied.text
            else:
                data["reply_to_message"]["text"] = replied.text
    return data


_ADMIN_RIGHTS = (
    "can_manage_chat", "can_delete_messages", "can_manage_video_chats", "can_restrict_members",
    "can_promote_members", "can_change_info", "can_invite_users", "can_post_stories",
    "can_edit_stories", "can_delete_stories", "can_pin_messages", "can_manage_topics",
)  # fmt: skip
_RESTRICTIONS = (
    "can_send_messages", "can_send_audios", "can_send_documents", "can_send_photos",
    "can_send_videos", "can_send_video_notes", "can_send_voice_notes", "can_send_polls",
    "can_send_other_messages", "can_add_web_page_previews", "can_change_info",
    "can_invite_users", "can_pin_messages", "can_manage_topics", "can_edit_tag",
    "can_react_to_messages",
)  # fmt: skip


def member_json(user: UserState, status: str) -> dict[str, Any]:
    """A ChatMember of the given status; restricted members may not send (read-only)."""
    data: dict[str, Any] = {"status": status, "user": user_json(user)}
    if status == "creator":
        data["is_anonymous"] = False
    elif status == "administrator":
        data.update(can_be_edited=False, is_anonymous=False)
        data.update(dict.fromkeys(_ADMIN_RIGHTS, True))
        data["can_promote_members"] = False
    elif status in ("restricted", RESTRICTED_GONE):
        data.update(status="restricted", is_member=status == "restricted", until_date=0)
        data.update(dict.fromkeys(_RESTRICTIONS, False))
    elif status == "kicked":
        data["until_date"] = 0
    return data
