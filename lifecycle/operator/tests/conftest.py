import pytest

from lifecycle.operator.services import operator_create

PASSWORD = "operator-password-123"


@pytest.fixture
def operator(db):
    """An operator account (its authenticator key as `.secret`)."""
    account, secret = operator_create(email="Ops@Platform.example", password=PASSWORD, name="Ops")
    account.secret = secret
    return account
