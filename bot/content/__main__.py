"""`python -m bot.content check [PATH]`: the content checker without the bot's entry point."""

import sys

from bot.content.cli import main

sys.exit(main())
