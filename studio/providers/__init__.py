"""Model API clients over httpx (OpenAI-compatible chat, Anthropic messages)."""
