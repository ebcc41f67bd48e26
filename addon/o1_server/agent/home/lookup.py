"""Finding exposed entities by what a user (or a small model) calls them: names, aliases, areas, groups.

``find_entities`` ranks kinds of match (entity id, name, "<area> <name>", words, close spellings) and
``group_of`` reads group phrases ("all lights"). Pure functions over ``Entity`` lists: no Home Assistant call.
"""

from __future__ import annotations

import difflib
import re
import unicodedata

from .context import Entity

MAX_NAME = 100  # characters of a name to look up (spoken names are short; fuzzy matching costs grow with it)
_FILLERS = ("the", "a", "an", "my", "our", "please")
_PREPOSITIONS = ("in", "on", "of", "at")


def norm(text: str) -> str:
    """A name reduced for comparison: ASCII, lower case, words only, no filler words ("the", "my"...)."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    words = re.findall(r"[a-z0-9]+", text.replace("_", " "))
    return " ".join(w for w in words if w not in _FILLERS)


def in_area(entity: Entity, area: str) -> bool:
    """Whether ``entity`` is in ``area`` (by name or alias, compared normalised)."""
    return norm(area) in {norm(a) for a in entity.areas}


def find_entities(
    entities: tuple[Entity, ...] | list[Entity], phrase: str, domain: str | None = None, area: str | None = None
) -> list[Entity]:
    """Entities matching a spoken phrase ("kitchen light", "front door", an entity id), best first.

    Exact entity id, then exact name/alias, then "<area> <name or domain>", then close spellings
    (difflib ratio >= 0.8). Returns every entity tied for the best kind of match (so several means the
    phrase is ambiguous); an empty list when nothing matches, or for a phrase longer than ``MAX_NAME``.
    """
    if len(phrase) > MAX_NAME:
        return []
    pool = [e for e in entities if domain is None or e.domain == domain]
    if area:
        pool = [e for e in pool if in_area(e, area)] or pool
    wanted = norm(phrase)
    if not wanted:
        return []
    exact_id = [e for e in pool if e.entity_id == phrase.strip().lower()]
    if exact_id:
        return exact_id
    by_name = [e for e in pool if wanted in {norm(n) for n in e.names}]
    if by_name:
        return by_name
    combos = [e for e in pool if _area_combo(e, wanted)]
    if combos:
        return combos
    words = [e for e in pool if any(set(wanted.split()) <= set(norm(n).split()) for n in e.names)]
    if words:
        return words
    return _closest(pool, wanted)


def _area_combo(entity: Entity, wanted: str) -> bool:
    """Whether ``wanted`` is one of the entity's areas before or after its name, a word of it or its domain
    ("kitchen light", "light in the kitchen", "kitchen lights")."""
    for a in entity.areas:
        na = norm(a)
        if na and (wanted.startswith(na + " ") or wanted.endswith(" " + na)):
            rest = wanted.removeprefix(na + " ") if wanted.startswith(na + " ") else wanted.removesuffix(" " + na)
            rest = " ".join(w for w in rest.split() if w not in _PREPOSITIONS)
            if _names_entity(entity, rest):
                return True
    return False


def _names_entity(entity: Entity, rest: str) -> bool:
    """Whether ``rest`` (a phrase without its area) is the entity's name, a word of it or its domain."""
    return (
        rest in {norm(n) for n in entity.names}
        or rest in (entity.domain, entity.domain.replace("_", " ") + "s")
        or rest.rstrip("s") == entity.domain
        or any(rest in norm(n).split() for n in entity.names)
    )


def _closest(pool: list[Entity], wanted: str) -> list[Entity]:
    """The entities whose names (alone or after an area) are spelled closest to ``wanted``: a ratio of at
    least 0.8, and within 0.02 of the best."""
    scored = []
    for e in pool:
        keys = [norm(n) for n in e.names] + [f"{norm(a)} {norm(n)}" for a in e.areas for n in e.names]
        scored.append((max(_close(wanted, k) for k in keys), e))
    best = max((s for s, _ in scored), default=0.0)
    if best < 0.8:
        return []
    return [e for s, e in scored if s >= best - 0.02]


def _close(wanted: str, key: str) -> float:
    """difflib's ratio of two names, 0.0 when its cheap upper bounds show it is below 0.78 (never kept: the
    best must reach 0.8 and ties are within 0.02)."""
    matcher = difflib.SequenceMatcher(None, wanted, key)
    if matcher.real_quick_ratio() < 0.78 or matcher.quick_ratio() < 0.78:
        return 0.0
    return matcher.ratio()


def group_of(entities: tuple[Entity, ...] | list[Entity], name: str, bare: bool = False) -> list[Entity] | None:
    """The entities a group phrase means ("all lights", "every lock", "all the switches"; with ``bare`` also
    "lights"), or None when ``name`` is not such a phrase (HA's own intents turn "turn off all the lights"
    into the light domain the same way)."""
    prefix = r"(?:(?:all|every|each)(?: of)? )" + ("?" if bare else "")
    match = re.fullmatch(prefix + r"([a-z_ ]+?)", norm(name))
    if match is None:
        return None
    word = match.group(1).replace(" ", "_")
    for domain in (word, word.removesuffix("s"), word.removesuffix("es")):
        chosen = [e for e in entities if e.domain == domain]
        if chosen:
            return chosen
    return None
