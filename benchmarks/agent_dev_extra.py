"""More dev-split cases in German, French and Spanish, for tuning only (``--cases benchmarks.agent_dev_extra``).

The generated set (``agent_gen.COUNTS``) has 2-4 cases per kind in each of these languages, so its dev split
holds only about 24 of them: too few to see what goes wrong in a language. This module makes the next six of
every kind and language with the same generators and seeds (what raising COUNTS would add) and keeps those whose
id falls in the dev split; the ones that would fall in the test split are dropped unread, so the test split stays
what it is and nothing here is ever reported as a test figure.
"""

from __future__ import annotations

from benchmarks.agent_gen import COUNTS, generated_cases

EXTRA = 6
"""New cases per kind and language before the dev/test split."""
LANGS = ("de", "fr", "es")

_more = {kind: {lang: per[lang] + EXTRA for lang in LANGS if lang in per} for kind, per in COUNTS.items()}
_old = {c.id for c in generated_cases()}
CASES = [c for c in generated_cases(_more) if c.id not in _old and c.split == "dev"]
