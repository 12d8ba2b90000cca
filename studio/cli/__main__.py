"""``python -m studio.cli``: the same as the ``studio`` console script."""

import sys

from studio.cli import main

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
