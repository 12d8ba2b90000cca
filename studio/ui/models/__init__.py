"""Qt item models: thin adapters over domain objects."""
