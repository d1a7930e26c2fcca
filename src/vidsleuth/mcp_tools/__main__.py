"""``python -m vidsleuth.mcp_tools ARGS`` = ``vidsleuth mcp ARGS``."""

import sys

from ..cli import main

sys.exit(main(["mcp", *sys.argv[1:]]))
