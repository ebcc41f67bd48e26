"""Allow, confirm or deny: a profile's policy applied to a :class:`~.findings.Classification`.

The strictest decision over the block's categories wins; a denial is explained in one spoken sentence, in the
language of the running turn (``i18n.current()``; English outside a turn).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..i18n import current, t
from .categories import CATEGORIES
from .findings import Classification
from .phrasing import _join_words

DECISIONS = ("allow", "confirm", "deny")
_RANK = {"allow": 0, "confirm": 1, "deny": 2}


@dataclass(frozen=True)
class Decision:
    """What to do with a classified block: ``action`` is one of :data:`DECISIONS`.

    categories: the categories that decided the action (those whose policy is as strict as ``action``).
    reason: one spoken sentence: why it was denied, or what needs confirmation (the classification summary).
    """

    action: str
    categories: frozenset[str]
    reason: str


def decide(policy: Mapping[str, str], classification: Classification) -> Decision:
    """Decide allow / confirm / deny for ``classification`` under ``policy``.

    policy maps a category to ``allow``, ``confirm`` or ``deny`` (case and surrounding spaces ignored). The
    strictest decision over the classification's categories wins (deny > confirm > allow); a category missing
    from the policy counts as ``confirm``. Keys that are not categories are ignored.

    Raises ValueError when a value in ``policy`` is not one of :data:`DECISIONS`.
    """
    actions = {category: _policy_action(policy, category) for category in CATEGORIES}
    categories = classification.categories or frozenset({"read_only"})
    action = max((actions.get(c, "confirm") for c in categories), key=_RANK.__getitem__)
    deciding = frozenset(c for c in categories if actions.get(c, "confirm") == action)
    reason = _deny_sentence(deciding) if action == "deny" else classification.summary
    return Decision(action=action, categories=deciding, reason=reason)


def _policy_action(policy: Mapping[str, str], category: str) -> str:
    """Return the policy's decision for one category (``confirm`` when missing)."""
    value = policy.get(category)
    if value is None:
        return "confirm"
    action = str(value).strip().lower()
    if action not in _RANK:
        raise ValueError(f"policy for {category!r} is {value!r}; expected one of {', '.join(DECISIONS)}")
    return action


def _deny_sentence(categories: Iterable[str]) -> str:
    """One spoken sentence, in the turn's language, naming the kinds of action this profile does not allow."""
    language = current()
    phrases = [t(language, f"category.{c}.denied") for c in CATEGORIES if c in categories]
    listed = _join_words(phrases, t(language, "summary.or")) or t(language, "refuse.this")
    return t(language, "refuse.policy", rules=listed)
