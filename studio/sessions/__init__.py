"""Sessions: the internal message model, importers, pairing analysis and replay."""
