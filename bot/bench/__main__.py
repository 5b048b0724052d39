import sys

from bot.bench.cli import main

sys.exit(main(sys.argv[1:]))
