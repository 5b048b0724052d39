-- A learner's own time zone (issue 14): `/timezone Europe/Paris` in private. Their daily
-- reminder fires at its local time there. NULL: never chosen, the bot's default zone
-- (QUIZBOT_TIMEZONE) applies. Deleted with the rest of the profile by /forget.
ALTER TABLE users ADD COLUMN timezone TEXT;
