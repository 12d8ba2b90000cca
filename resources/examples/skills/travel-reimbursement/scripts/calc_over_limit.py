"""Amount over a policy limit, in exact decimals: calc_over_limit.py AMOUNT LIMIT → excess (0 when within)."""

import sys
from decimal import Decimal, InvalidOperation


def over_limit(amount: str, limit: str) -> Decimal:
    """The part of ``amount`` above ``limit`` (never negative)."""
    excess = Decimal(amount) - Decimal(limit)
    return excess if excess > 0 else Decimal("0")


if __name__ == "__main__":
    try:
        print(over_limit(sys.argv[1], sys.argv[2]))
    except (IndexError, InvalidOperation):
        sys.exit("usage: calc_over_limit.py AMOUNT LIMIT  (e.g. 118.5 80)")
