"""The Lua scripts (apps/public_api/lua) agree with the Python that calls them: the names and
order of their KEYS and ARGV (apps.public_api.cache.Script), the reply codes (cache.Code), the
host entry's fields (keys.host_fields), the arguments of the `limits` library's rate-limit script
inserted into the fast path's, and no key prefix written in a script (every key is made in
Python). Read from the scripts' text, so a change on one side only fails here."""
from __future__ import annotations

import re

import pytest
from django.conf import settings

from apps.core import ratelimit
from apps.public_api import cache, keys
from apps.public_api.cache import Code, Script

DECLARED = re.compile(r"^local (\w+)\s*=\s*(KEYS|ARGV)\[(\d+)\]", re.MULTILINE)
HOST_PAIR = re.compile(r"'(\w+)',\s*ARGV\[(\d+)\]")
USED = re.compile(r"\b(KEYS|ARGV)\[(\d+)\]")
RETURNED = re.compile(r"return \{(\w+)")
FIELDS_READ = re.compile(r"'HMGET',\s*host_key,\s*((?:'\w+'(?:,\s*)?)+)\)")
ACQUIRE_CALL = re.compile(r"acquire\(\{([^}]*)\},\s*\{([^}]*)\}\)")


def disagreements(script: Script) -> list[str]:
    """What in `script.text` disagrees with the Python definitions (empty: they agree)."""
    found = []
    text = re.sub(r"--[^\n]*", "", script.text)  # the code, without its comments
    named = {"KEYS": list(script.keys), "ARGV": list(script.args)}
    declared: dict[str, dict[int, list[str]]] = {"KEYS": {}, "ARGV": {}}
    for name, table, index in DECLARED.findall(text):
        declared[table].setdefault(int(index), []).append(name)
    for field, index in HOST_PAIR.findall(text):
        declared["ARGV"].setdefault(int(index), []).append(f"host:{field}")
    for table in ("KEYS", "ARGV"):
        for index, names in sorted(declared[table].items()):
            expected = named[table][index - 1] if index <= len(named[table]) else None
            for name in names:
                if name != expected:
                    found.append(f"{script.name}.lua: {table}[{index}] is {name}, Python gives {expected}")
        missing = [name for position, name in enumerate(named[table], 1) if position not in declared[table]]
        if missing:
            found.append(f"{script.name}.lua never reads {table} {missing}")
        for _, index in (used for used in USED.findall(text) if used[0] == table):
            if int(index) not in declared[table] and not (table == "ARGV" and script.rest):
                found.append(f"{script.name}.lua reads {table}[{index}], which Python does not name")
    for name in RETURNED.findall(text) if script.codes else ():
        if name not in Code.__members__:
            found.append(f"{script.name}.lua answers {name}, not a cache.Code")
    for fields in FIELDS_READ.findall(text):
        read = tuple(re.findall(r"'(\w+)'", fields))
        if read != cache.HOST_FIELDS[: len(read)]:
            found.append(f"{script.name}.lua reads the host entry's fields {read}, Python writes {cache.HOST_FIELDS}")
    if re.search(r"['\"][^'\"]*(papi:|content-version|limits:)[^'\"]*['\"]", text):
        found.append(f"{script.name}.lua writes a key prefix of its own (keys are made in Python)")
    for given_keys, given_args in ACQUIRE_CALL.findall(text):
        given = [part.strip() for part in given_args.split(",")]
        # (the fast path's lookup takes its hit and the hits its worker answered from leases: `amount`)
        wanted = {"limit": "limit", "expiry": "window", "amount": "amount" if "amount" in script.args else "1"}
        if given != [wanted[name] for name in cache.ACQUIRE_ARGS]:
            found.append(f"{script.name}.lua calls the rate limit with {given}, its script reads {cache.ACQUIRE_ARGS}")
        counters = {"previous": f"limit_key .. '{cache.PREVIOUS_WINDOW}'", "current": "limit_key"}
        if [part.strip() for part in given_keys.split(",")] != [counters[name] for name in cache.ACQUIRE_KEYS]:
            found.append(f"{script.name}.lua gives the rate limit the keys {given_keys}, its script reads "
                         f"{cache.ACQUIRE_KEYS}")
    return found


@pytest.mark.parametrize("script", cache.SCRIPTS, ids=lambda script: script.name)
def test_each_script_agrees_with_its_python_definition(script):
    assert disagreements(script) == []


def test_the_inserted_rate_limit_reads_its_arguments_and_keys_in_the_order_given():
    """The `limits` library's sliding-window-counter script, as the fast path's script calls it:
    ARGV (limit, expiry, amount), KEYS (the previous window's counter, which the current one is
    renamed to when its window ends; the current one), the previous key named as the library
    names it, and the same key Python's limiter counts in (keys.throttle_key)."""
    read = re.findall(r"local (\w+) = tonumber\(ARGV\[(\d+)\]\)", cache.ACQUIRE_SOURCE)
    assert [name for name, _ in sorted(read, key=lambda pair: int(pair[1]))] == list(cache.ACQUIRE_ARGS)
    assert "redis.call('rename', KEYS[2], KEYS[1])" in cache.ACQUIRE_SOURCE  # current -> previous
    assert cache.ACQUIRE_KEYS == ("previous", "current")
    assert cache.ACQUIRE_MARK in cache.FAST_LOOKUP.text and cache.ACQUIRE_SOURCE in cache.FAST_LOOKUP.source
    storage = ratelimit._limiter().storage
    assert storage._previous_window_key("k") == storage._current_window_key("k") + cache.PREVIOUS_WINDOW
    item = ratelimit.rate(600, settings.PUBLIC_API_RATE_WINDOW)
    assert keys.throttle_key("abc", 600) == storage.prefixed_key(storage._current_window_key(
        item.key_for("public-api", "abc")))


def test_the_host_entry_is_written_with_the_fields_the_scripts_read(monkeypatch):
    monkeypatch.setattr(keys, "limit_of", lambda client: 600)
    client = type("Company", (), {"schema_name": "acme", "api_key": "k1", "preview_key": "k2",
                                  "ghost_content_key": "a" * 26})()
    assert tuple(keys.host_fields(client)) == cache.HOST_FIELDS


def test_codes_are_prepended_from_python():
    for script in (cache.FAST_LOOKUP, cache.FAST_TRACK):
        for code in Code:
            assert f"local {code.name} = {code.value}\n" in script.source


def _altered(script: Script, old: str, new: str) -> Script:
    changed = object.__new__(Script)
    changed.__dict__.update(script.__dict__, text=script.text.replace(old, new, 1))
    assert changed.text != script.text
    return changed


@pytest.mark.parametrize("old,new,says", [
    ("local window = ARGV[7]", "local window = ARGV[8]", "ARGV[8] is window"),  # two arguments swapped
    ("return {RATE_LIMITED, limit}", "return {THROTTLED, limit}", "not a cache.Code"),
    ("'s', 'c', 'p', 'l', 'wc', 'wp', 'g', 'wg'", "'s', 'p', 'c', 'l', 'wc', 'wp', 'g', 'wg'", "host entry's fields"),
    ("{limit, window, amount}", "{window, limit, amount}", "calls the rate limit"),
    ("{limit, window, amount}", "{limit, window, 1}", "calls the rate limit"),  # the leases' hits not counted
    ("{limit_key .. '/-1', limit_key}", "{limit_key, limit_key .. '/-1'}", "gives the rate limit the keys"),
    ("local version_prefix = ARGV[3]", "local version_prefix = 'cms:content-version:'", "never reads ARGV"),
])
def test_the_check_fails_when_a_script_disagrees(old, new, says):
    """The check itself: each kind of disagreement, made on purpose in a copy of the fast path's
    script, is found."""
    found = disagreements(_altered(cache.FAST_LOOKUP, old, new))
    assert any(says in line for line in found), found


def test_the_check_fails_when_python_disagrees():
    changed = object.__new__(Script)
    changed.__dict__.update(cache.STORE.__dict__, args=("body", "etag", "ttl", "total"))
    assert any("ARGV[1] is etag" in line for line in disagreements(changed))
