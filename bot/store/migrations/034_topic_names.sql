-- Forum topics' names as the bot last heard them: from the service messages that create a topic
-- (forum_topic_created) and rename it (forum_topic_edited with a name). Telegram repeats a
-- topic's FIRST name on its later messages (their reply to the creation), so a rename is known
-- only from its own message; /schedules shows the name kept here. The latest message wins
-- (`message_id`: ids grow in a chat). Forums are supergroups only: a group's move to a
-- supergroup has none to carry.
CREATE TABLE topic_names (
    chat_id    INTEGER NOT NULL,
    thread_id  INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    message_id INTEGER NOT NULL,
    named_at   REAL    NOT NULL,
    PRIMARY KEY (chat_id, thread_id)
);
