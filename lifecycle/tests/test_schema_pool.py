"""The pool of spare schemas (lifecycle/provisioning.py): a sign-up renames a spare cloned ahead of
time; the company it makes is the one a clone makes; two sign-ups never take the same spare."""
import threading

import pytest
from django.db import connection, connections
from django_tenants.utils import schema_context, schema_exists

from apps.accounts.models import User
from apps.content.tests.factories import make_post
from apps.core.testing import create_tenant
from tenants.models import SpareSchema
from lifecycle.provisioning import schema_pool_refill, template_current
from lifecycle.tests.test_batch_migrate import shape

# Companies here are cloned by the code under test, not taken from the run's spares.
pytestmark = pytest.mark.usefixtures("no_spare_schemas")


@pytest.fixture(autouse=True)
def _drop_what_the_test_made(transactional_db):
    """These tests commit: drop the companies and spares they made (schemas outlive the flush)."""
    yield
    from tenants.models import Client

    connection.set_schema_to_public()
    for client in Client.objects.exclude(schema_name="public"):
        client.delete(force_drop=True)
    with connection.cursor() as cursor:
        cursor.execute("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'spare\\_%'")
        for (name,) in cursor.fetchall():
            cursor.execute(f'DROP SCHEMA "{name}" CASCADE')


@pytest.mark.django_db(transaction=True)
def test_a_sign_up_takes_a_spare_and_gets_the_company_a_clone_gets(settings):
    settings.SCHEMA_POOL_SIZE = 0
    cloned = create_tenant()  # pool empty: the template's DDL
    assert schema_pool_refill(size=2) == 2
    spares = set(SpareSchema.objects.values_list("schema_name", flat=True))
    assert len(spares) == 2 and all(schema_exists(name) for name in spares)

    taken = create_tenant()
    left = set(SpareSchema.objects.values_list("schema_name", flat=True))
    assert len(left) == 1 and left < spares
    gone = (spares - left).pop()
    assert not schema_exists(gone) and schema_exists(taken.schema_name)  # renamed, not copied

    # Same tables, columns, indexes, constraints, migration records and seed rows as a clone.
    ddl = shape(taken.schema_name)["text"].replace(taken.schema_name, "<schema>")
    assert ddl == shape(cloned.schema_name)["text"].replace(cloned.schema_name, "<schema>")
    with schema_context(taken.schema_name):
        assert list(User.objects.values_list("role", flat=True)) == ["admin"]
    # The post-count triggers name their schema at run time: they work after the rename.
    make_post(taken, "Counted", status="published")
    with schema_context(taken.schema_name):
        with connection.cursor() as cursor:
            cursor.execute("SELECT total FROM content_post_count WHERE status = 'published'")
            assert cursor.fetchone()[0] == 1


@pytest.mark.django_db(transaction=True)
def test_a_failed_sign_up_gives_its_spare_back(settings, monkeypatch):
    settings.SCHEMA_POOL_SIZE = 0
    schema_pool_refill(size=1)
    spare = SpareSchema.objects.get().schema_name

    from lifecycle import services

    def fail(**kwargs):
        raise RuntimeError("the admin could not be created")

    monkeypatch.setattr(services, "user_create", fail)
    with pytest.raises(RuntimeError):
        create_tenant()
    assert SpareSchema.objects.get().schema_name == spare and schema_exists(spare)


@pytest.mark.django_db(transaction=True)
def test_parallel_sign_ups_never_share_a_spare(settings):
    settings.SCHEMA_POOL_SIZE = 0
    schema_pool_refill(size=2)
    made, errors = [], []

    def sign_up():
        try:
            made.append(create_tenant())
        except Exception as exc:  # noqa: BLE001 (reported below)
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=sign_up) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len({client.schema_name for client in made}) == 4
    assert all(schema_exists(client.schema_name) for client in made)
    assert SpareSchema.objects.count() == 0  # two took spares, two cloned


@pytest.mark.django_db(transaction=True)
def test_spares_of_an_older_template_are_dropped_and_never_taken(settings):
    settings.SCHEMA_POOL_SIZE = 0
    schema_pool_refill(size=1)
    old = SpareSchema.objects.get()
    SpareSchema.objects.filter(pk=old.pk).update(migrations_digest="older")
    client = create_tenant()
    assert schema_exists(old.schema_name)  # not taken: the company was cloned
    assert client.schema_name != old.schema_name

    assert schema_pool_refill(size=1) == 1
    assert not schema_exists(old.schema_name)
    assert list(SpareSchema.objects.values_list("migrations_digest", flat=True)) == [
        template_current().migrations_digest]


@pytest.mark.django_db(transaction=True)
def test_a_session_that_cloned_many_schemas_is_replaced_at_the_end_of_its_task(settings):
    """A session keeps the relations of every schema it created in its caches (hundreds of MB after
    thousands): the clones count with the companies the connection served (DB_CONNECTION_MAX_SCHEMAS),
    and past the bound the connection is closed when the task (or request) ends."""
    import time

    settings.SCHEMA_POOL_SIZE, settings.DB_CONNECTION_MAX_SCHEMAS = 0, 2
    connection.close()
    connection.ensure_connection()
    first = connection.connection
    assert schema_pool_refill(size=2) == 2
    connection.close_if_unusable_or_obsolete()  # what Celery's Django fixup runs when a task ends
    assert connection.connection is first  # two schemas: kept
    assert schema_pool_refill(size=3) == 1
    assert connection.close_at is not None and connection.close_at <= time.monotonic()
    connection.close_if_unusable_or_obsolete()
    assert connection.connection is None  # a third: closed, the next task connects afresh
