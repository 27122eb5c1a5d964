"""Keep the fast path's host map in step with the companies: after a company is saved (key
rotation, suspension, plan change) or deleted, and after a domain changes, the host entries are
rewritten once the transaction commits. Whatever path made the change (API, operator command,
admin shell) goes through here."""
from __future__ import annotations

import logging

import redis
from django.db import transaction
from django.db.models.signals import post_delete, post_save, pre_delete
from django.dispatch import receiver

from apps.core import redis_conn
from apps.public_api import cache, core
from tenants.models import Client, Domain

logger = logging.getLogger(__name__)


def _replace(hosts: list[str], client, *, usable: bool) -> None:
    def write() -> None:
        try:
            cache.host_replace(hosts, client, usable=usable)
        except redis.RedisError as exc:
            redis_conn.failed(exc, "public API host map not updated")
            logger.error("host map of %s not updated; old keys may pass the fast path for up to "
                         "PUBLIC_API_HOST_MAP_TTL seconds", hosts)
        finally:  # this process's threads ask Redis again at once (other processes within a lease)
            core.forget_leases()

    if hosts:
        transaction.on_commit(write)


@receiver(post_save, sender=Client, dispatch_uid="public_api_client_saved")
def client_saved(sender, instance: Client, **kwargs) -> None:
    hosts = list(Domain.objects.filter(tenant_id=instance.pk).values_list("domain", flat=True))
    _replace(hosts, instance, usable=instance.may_syndicate)


@receiver(pre_delete, sender=Client, dispatch_uid="public_api_client_deleted")
def client_deleted(sender, instance: Client, **kwargs) -> None:
    hosts = list(Domain.objects.filter(tenant_id=instance.pk).values_list("domain", flat=True))
    _replace(hosts, instance, usable=False)


@receiver(post_save, sender=Domain, dispatch_uid="public_api_domain_saved")
def domain_saved(sender, instance: Domain, **kwargs) -> None:
    tenant = instance.tenant
    _replace([instance.domain], tenant, usable=tenant.may_syndicate)


@receiver(post_delete, sender=Domain, dispatch_uid="public_api_domain_deleted")
def domain_deleted(sender, instance: Domain, **kwargs) -> None:
    _replace([instance.domain], None, usable=False)
