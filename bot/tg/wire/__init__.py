"""Wire code between the bot and the Bot API: the HTTP transport, rate limiting and retries, the
sending pace shared by workers, per-chat update order, timers, photo uploads and captions, the
webhook's reading of an update. No rule of the quiz lives here."""
