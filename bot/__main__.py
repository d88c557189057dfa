import sys

from bot.terminal.cli import main

sys.exit(main())
