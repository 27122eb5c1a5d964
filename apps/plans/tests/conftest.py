import copy

import pytest
from django.conf import settings as django_settings


@pytest.fixture(autouse=True)
def plans(settings):
    """The product's plans (the suite's settings lift their limits), a copy this test may change."""
    settings.PLANS = copy.deepcopy(django_settings.PLANS_AS_SHIPPED)
    return settings.PLANS
