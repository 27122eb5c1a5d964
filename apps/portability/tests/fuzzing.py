"""What the structure-aware fuzz tests of hostile input share (the import parsers'
test_fuzz_parsers.py, the Ghost filter grammar's apps/ghost_api/tests/test_fuzz_filters.py): their
Hypothesis settings and the odd values they put anywhere.

`make test` runs each property with its small fixed budget (derandomized: the same examples on
every run, a few seconds in all); `make fuzz-import` runs them with FUZZ_EXAMPLES examples each
(20,000 by default; a tenth of that for the properties that go through the database), still
derandomized, so that a finding is found again by the same command.
"""
from __future__ import annotations

import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

FUZZ_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES") or 0)  # 0: each test's own budget


def fuzz_settings(examples: int, *, share: float = 1.0, fixed: bool = False) -> settings:
    """`examples` examples under `make test`; under `make fuzz-import`, `share` of FUZZ_EXAMPLES (a
    property that goes through the database or the API takes a tenth of the examples of one that
    does not), or `examples` when `fixed`. No deadline (a slow example is not a finding), no example
    database written into the working tree. A test that takes a pytest fixture shares it between its
    examples (they leave it as they found it)."""
    budget = examples if fixed or not FUZZ_EXAMPLES else max(examples, int(FUZZ_EXAMPLES * share))
    return settings(max_examples=budget, deadline=None, derandomize=True, database=None, print_blob=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much, HealthCheck.large_base_example,
                                           HealthCheck.function_scoped_fixture])


# Characters that have broken parsers before: NUL and the other C0 controls, an unpaired surrogate,
# U+FFFE, the byte order mark, a right-to-left override, quotes, brackets and markup.
ODD_CHARACTERS = "\x00\x01\x0b\x1b\ud800\udfff\ufffe\ufeff\u202e\"'<>&[]{}()\\%#\n\t "
odd_text = st.text(st.one_of(st.sampled_from(ODD_CHARACTERS), st.characters(exclude_categories=())), max_size=24)

# Numbers JSON (as Python reads it) can hold: huge, negative, NaN and the infinities.
odd_numbers = st.one_of(st.integers(), st.sampled_from([0, -1, 2**63, -(2**63), 10**30, 10**300]),
                        st.floats(allow_nan=True, allow_infinity=True))

scalars = st.one_of(st.none(), st.booleans(), odd_numbers, odd_text, st.sampled_from(["", "None", "null", "0"]))

# Anything JSON holds, nested a few levels.
junk = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                     st.dictionaries(st.text(max_size=6), inner, max_size=3)),
                    max_leaves=6)
