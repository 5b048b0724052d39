"""The Telegram Mini App dashboard: learners' progress, group analytics, content preview.

Served by quizbot itself on aiohttp (`quizbot web`, or beside the bot in `quizbot run` when
QUIZBOT_WEBAPP_URL is set); pages are rendered on the server, charts are inline SVG.
"""
