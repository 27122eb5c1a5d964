"""Category and tag routes: one implementation, two configurations. The five calls of each
(docs/content.md) take the same permissions and answer with messages that differ only by the noun.

No `from __future__ import annotations` here: ninja reads each handler's payload type from its
annotations, which come from the configuration."""
from dataclasses import dataclass
from typing import Any, Callable

from ninja import Path, Router

from apps.core.permissions import requires
from apps.core.schemas import MessageOut

CANNOT_CREATE_TAXONOMY = "You don't have permission to create categories or tags"
CANNOT_MANAGE_TAXONOMY = "You don't have permission to change or delete categories or tags"


@dataclass(frozen=True)
class Term:
    noun: str  # "category" or "tag": the reply's key, the services' keyword, the path parameter
    get: Callable[[str], Any]  # selector: id -> model (NotFound otherwise)
    create: Callable[..., Any]  # services, keyword-only
    update: Callable[..., Any]
    delete: Callable[..., Any]
    out: Callable[[Any], Any]  # model -> its Out schema
    create_in: type
    update_in: type
    saved_out: type
    reply_out: type


def add_term_routes(router: Router, term: Term) -> None:
    """Registers add, get, update and delete of one kind of term on its router (the lists differ:
    tags are paged and searchable, categories are not; they stay in api.py)."""
    label = term.noun.capitalize()
    path = f"/{{{term.noun}_id}}"
    path_param = Path(..., alias=f"{term.noun}_id")

    def operation(action: str) -> dict:  # the ids and summaries the OpenAPI documents have always had
        return {"operation_id": f"apps_content_api_{action}_{term.noun}", "summary": f"{action.capitalize()} {label}"}

    def saved(message: str, obj):
        return term.saved_out(message=f"{label} {message} successfully", **{term.noun: term.out(obj)})

    @router.post("/add", response={201: term.saved_out}, **operation("add"))
    @requires("taxonomy.create", CANNOT_CREATE_TAXONOMY)
    def add(request, payload: term.create_in):
        return saved("created", term.create(**payload.dict(), actor=request.auth))

    @router.get(path, response=term.reply_out, **operation("get"))
    @requires("content.read")
    def get(request, term_id: str = path_param):
        return term.reply_out(**{term.noun: term.out(term.get(term_id))})

    @router.put(path, response=term.saved_out, **operation("update"))
    @requires("taxonomy.manage", CANNOT_MANAGE_TAXONOMY)
    def update(request, payload: term.update_in, term_id: str = path_param):
        obj = term.get(term_id)
        return saved("updated", term.update(**{term.noun: obj}, actor=request.auth, **payload.dict(exclude_none=True)))

    @router.delete(path, response=MessageOut, **operation("delete"))
    @requires("taxonomy.manage", CANNOT_MANAGE_TAXONOMY)
    def delete(request, term_id: str = path_param):
        obj = term.get(term_id)
        term.delete(**{term.noun: obj}, actor=request.auth)
        return MessageOut(message=f"{label} deleted successfully")
