from django.contrib.auth.hashers import check_password, make_password
from django.test import override_settings

PRODUCTION_HASHERS = ["apps.accounts.hashers.Argon2idHasher", "django.contrib.auth.hashers.PBKDF2PasswordHasher"]


@override_settings(PASSWORD_HASHERS=PRODUCTION_HASHERS)
def test_passwords_are_stored_with_argon2id_at_the_owasp_baseline():
    encoded = make_password("correct horse battery")
    assert encoded.startswith("argon2$argon2id$v=19$m=19456,t=2,p=1$")
    assert check_password("correct horse battery", encoded)
    assert not check_password("wrong horse battery", encoded)


@override_settings(PASSWORD_HASHERS=PRODUCTION_HASHERS)
def test_older_pbkdf2_hashes_still_verify():
    from django.contrib.auth.hashers import PBKDF2PasswordHasher

    legacy = PBKDF2PasswordHasher().encode("old password", "saltsalt", iterations=1000)
    assert check_password("old password", legacy)
