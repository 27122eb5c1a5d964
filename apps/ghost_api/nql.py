"""Ghost's filter language (NQL), the part websites use, parsed with a grammar (lark, LALR) and
compiled to Django Q objects.

    filter   := or
    or       := and ("," and)*            a,b      either
    and      := atom ("+" atom)*          a+b      both
    atom     := "(" or ")" | comparison
    comparison := FIELD ":" [op] (value | "[" value ("," value)* "]")
    op       := "-" (not) | ">" | ">=" | "<" | "<="
    value    := 'quoted text' (\\' inside) | bare text (letters, digits, _ - . @ $) | true | false | null

What a resource may filter on is its own table of fields (`Fields`: a field name -> a function
of (op, values) giving a Q). Anything else (an unknown field, an operator a field does not take,
Ghost's `~` contains or relative dates) is refused with `FilterError` (Ghost's 400, never
ignored). Limits, checked before parsing: MAX_LENGTH characters, MAX_DEPTH levels of parentheses,
MAX_VALUES values in a list; a parse builds no Python recursion deeper than MAX_DEPTH.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache, reduce
from operator import and_, or_

from django.db.models import Q

MAX_LENGTH = 4000  # 100 ids of 24 hex digits in one `id:[...]` fit, with room
MAX_DEPTH = 10
MAX_VALUES = 100
MAX_COMPARISONS = 200

GRAMMAR = r"""
?start: or_expr
?or_expr: and_expr
        | and_expr ("," and_expr)+   -> any_of
?and_expr: atom
         | atom ("+" atom)+          -> all_of
?atom: "(" or_expr ")"
     | comparison
comparison: FIELD ":" OP? (value | list)
list: "[" value ("," value)* "]"
?value: STRING -> quoted
      | BARE   -> bare
OP: ">=" | "<=" | ">" | "<" | "-~" | "~^" | "~$" | "~" | "-"
FIELD: /[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*/i
STRING: /'(?:[^'\\]|\\.)*'/
BARE: /[A-Za-z0-9_@$.][A-Za-z0-9_@$.\-]*/
%ignore /[ \t]+/
"""


class FilterError(ValueError):
    """A filter that is not understood or not supported (the message says why)."""


@dataclass(frozen=True)
class Comparison:
    field: str  # lower case
    op: str  # "=", "!=", ">", ">=", "<", "<=", "~", ...
    values: tuple  # str (text), True/False, None; more than one: a list ([a,b])
    is_list: bool


@dataclass(frozen=True)
class Node:
    kind: str  # "and" | "or"
    items: tuple


_OPS = {None: "=", "-": "!="}


@lru_cache(maxsize=1)
def _reader():
    """The parser and the transformer of its trees, made when a worker reads its first filter:
    lark (and the regex module it uses) is imported then, not by every web worker as it starts
    (2.7 MB each; most companies' websites send no filter)."""
    from lark import Lark, Transformer, v_args
    from lark.exceptions import LarkError, VisitError

    @v_args(inline=True)
    class Tree(Transformer):
        def quoted(self, token: str):
            text = token[1:-1]
            return ("text", text.replace("\\'", "'").replace('\\"', '"').replace("\\\\", "\\"))

        def bare(self, token: str):
            word = str(token)
            lowered = word.lower()
            if lowered in ("true", "false"):
                return ("literal", lowered == "true")
            if lowered == "null":
                return ("literal", None)
            return ("text", word)

        def list(self, *values):
            if len(values) > MAX_VALUES:
                raise FilterError(f"A filter list takes at most {MAX_VALUES} values")
            return ("list", values)

        def comparison(self, field: str, *rest):
            op = str(rest[0]) if len(rest) == 2 else None
            value = rest[-1]
            if op not in _OPS and op not in (">", ">=", "<", "<="):
                raise FilterError(f"The operator {op} is not supported")
            op = _OPS.get(op, op)
            if value[0] == "list":
                if op not in ("=", "!="):
                    raise FilterError("A list takes no comparison operator")
                return Comparison(str(field).lower(), op, tuple(v[1] for v in value[1]), True)
            return Comparison(str(field).lower(), op, (value[1],), False)

        def any_of(self, *items):
            return Node("or", items)

        def all_of(self, *items):
            return Node("and", items)

    return Lark(GRAMMAR, parser="lalr", maybe_placeholders=False), Tree, LarkError, VisitError


def _check_shape(text: str) -> None:
    if len(text) > MAX_LENGTH:
        raise FilterError(f"A filter is at most {MAX_LENGTH} characters")
    depth = deepest = 0
    quoted = escaped = False
    for char in text:
        if quoted:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == "'":
                quoted = False
        elif char == "'":
            quoted = True
        elif char == "(":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_DEPTH:
                raise FilterError(f"A filter nests at most {MAX_DEPTH} levels of parentheses")
        elif char == ")":
            depth -= 1
    if any(ord(char) < 32 and char != "\t" for char in text):
        raise FilterError("A filter has no control characters")


@lru_cache(maxsize=1024)
def parse(text: str) -> Node | Comparison:
    """The syntax tree of a filter (kept per worker: websites send the same few again and again)."""
    _check_shape(text)
    parser, tree_of, LarkError, VisitError = _reader()  # noqa: N806 (the library's exception classes)
    try:
        tree = tree_of().transform(parser.parse(text))
    except VisitError as exc:
        if isinstance(exc.orig_exc, FilterError):
            raise exc.orig_exc from None
        raise FilterError("The filter could not be read") from None
    except LarkError:
        raise FilterError("The filter could not be read") from None
    if _size(tree) > MAX_COMPARISONS:
        raise FilterError(f"A filter has at most {MAX_COMPARISONS} comparisons")
    return tree


def _size(tree) -> int:
    return 1 if isinstance(tree, Comparison) else sum(_size(item) for item in tree.items)


# A resource's filterable fields: name -> (op, values, is_list) -> Q, raising FilterError.
Fields = dict[str, Callable[[str, tuple, bool], Q]]


def compile_filter(text: str, fields: Fields) -> Q:
    """The Q of a filter over a resource's `fields`."""
    return _compile(parse(text), fields)


def _compile(tree, fields: Fields) -> Q:
    if isinstance(tree, Comparison):
        build = fields.get(tree.field)
        if build is None:
            raise FilterError(f"Filtering on {tree.field} is not supported")
        return build(tree.op, tree.values, tree.is_list)
    parts = [_compile(item, fields) for item in tree.items]
    return reduce(and_ if tree.kind == "and" else or_, parts)


def fields_of(tree) -> set[str]:
    """Every field a parsed filter names."""
    if isinstance(tree, Comparison):
        return {tree.field}
    return set().union(*(fields_of(item) for item in tree.items))


# --- helpers for field tables --------------------------------------------------------------------
def equality(match: Callable[[object], Q], *, name: str) -> Callable[[str, tuple, bool], Q]:
    """A field compared for (in)equality only: `match(value)` is the Q of one value; a list is
    any of its values; `-` negates."""
    def build(op: str, values: tuple, is_list: bool) -> Q:
        if op not in ("=", "!="):
            raise FilterError(f"{name} takes no {op} comparison")
        q = reduce(or_, (match(value) for value in values))
        return ~q if op == "!=" else q
    return build


NOTHING = Q(pk__in=[])
EVERYTHING = ~NOTHING
