"""Which registry an eval sends: a draft, a published version, or what a channel serves.

A variant is written ``draft``, ``3`` (version number), ``1.2.0`` (a version's
semver), ``#stable`` / ``channel:canary`` (the version a channel serves); any of
them followed by ``-without-skill:NAME`` is that registry without one skill (A vs
B "with vs without this skill", :mod:`studio.evals.skills`). Its
label names the registry too (``travel-reimbursement@3``), so a stored attempt
says what it measured even after the channel moved on.
"""

from __future__ import annotations

from dataclasses import dataclass

from registry_db import NotFoundError, RegistryStore
from studio.contract import Registry


class VariantError(ValueError):
    """A variant that names nothing in the registry; the message says what and how to write it."""


@dataclass(frozen=True, slots=True)
class Variant:
    """A resolved variant.

    Attributes:
        name: Its role in the run: ``A`` or ``B`` (``A`` alone for a single-variant run).
        spec: As written (``draft``, ``3``, ``1.2.0``, ``#stable``).
        label: ``registry@draft``, ``registry@3``; a channel adds its name
            (``registry@3#stable``).
        registry: The registry document the model sees.
    """

    name: str
    spec: str
    label: str
    registry: Registry


def _channel_version(store: RegistryStore, registry: str, channel: str) -> int:
    from registry_db.channels import ChannelRepository

    for c in ChannelRepository(store).channels(registry):
        if c.name == channel:
            if c.version is None:
                raise VariantError(f"channel {channel!r} of {registry} serves no version yet")
            return c.version
    raise VariantError(f"{registry} has no channel {channel!r}")


def resolve_variant(store: RegistryStore, registry: str, spec: str, name: str = "A") -> Variant:
    """The registry document ``spec`` names (see the module docstring for the forms).

    Raises:
        VariantError: the spec is malformed, or names a version or channel that does not exist.
        NotFoundError: the registry does not exist.
    """
    from studio.evals.skills import split_without_skill, without_skill

    base, dropped = split_without_skill(spec)
    if dropped:
        whole = resolve_variant(store, registry, base, name)
        try:
            document = without_skill(whole.registry, dropped)
        except ValueError as exc:
            raise VariantError(f"variant {spec!r}: {exc}") from None
        return Variant(name, spec, f"{whole.label}-without-skill:{dropped}", document)
    text = spec.strip()
    if text == "draft":
        return Variant(name, spec, f"{registry}@draft", store.draft_registry(registry))
    channel = ""
    if text.startswith("#") or text.startswith("channel:"):
        channel = text.removeprefix("#").removeprefix("channel:")
        number = _channel_version(store, registry, channel)
    elif text.isdigit():
        number = int(text)
    elif text.count(".") == 2:
        match = [v for v in store.list_versions(registry) if v.semver == text.removeprefix("v")]
        if not match:
            raise VariantError(f"{registry} has no version with semver {text}")
        number = match[0].number
    else:
        raise VariantError(
            f"variant {spec!r}: write draft, a version number (3), a semver (1.2.0) "
            "or a channel (#stable)"
        )
    try:
        version = store.load_version(registry, number)
    except NotFoundError:
        raise VariantError(f"{registry} has no version {number}") from None
    label = f"{registry}@{number}" + (f"#{channel}" if channel else "")
    return Variant(name, spec, label, version.registry)
