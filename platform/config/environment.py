"""Reading settings from the environment (used by config.settings and by the processes that
must decide something before Django's settings are imported)."""
import os


def env(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return int(value) if value not in (None, "") else default


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in env(name, default).split(",") if item.strip()]


def email_settings(debug: bool) -> dict:
    """Django's EMAIL_* settings from EMAIL_URL, else from the separate EMAIL_HOST, EMAIL_PORT,
    EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS, EMAIL_USE_SSL variables.

    EMAIL_URL forms: smtp://user:password@host:587?tls=1 (STARTTLS), smtps://user:password@host:465
    (TLS from the start), smtp://host:1025 (no authentication, a local catcher), console:// (print
    each message on the worker's output). Without either, DEBUG prints to the console and
    production sends to the SMTP server on localhost:25."""
    from urllib.parse import parse_qs, unquote, urlsplit

    url = env("EMAIL_URL", "").strip()
    if not url:
        if debug and not env("EMAIL_HOST"):
            return {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "EMAIL_HOST": env("EMAIL_HOST", "localhost"),
            "EMAIL_PORT": env_int("EMAIL_PORT", 25),
            "EMAIL_HOST_USER": env("EMAIL_HOST_USER", ""),
            "EMAIL_HOST_PASSWORD": env("EMAIL_HOST_PASSWORD", ""),
            "EMAIL_USE_TLS": env_bool("EMAIL_USE_TLS", False),
            "EMAIL_USE_SSL": env_bool("EMAIL_USE_SSL", False),
        }
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme == "console":
        return {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
    if scheme not in {"smtp", "smtps", "submission"}:
        raise ValueError(f"EMAIL_URL: unknown scheme {scheme!r} (smtp, smtps or console)")
    query = {key: values[-1].strip().lower() for key, values in parse_qs(parts.query).items()}
    on = {"1", "true", "yes", "on"}
    ssl = scheme == "smtps" or query.get("ssl") in on
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": parts.hostname or "localhost",
        "EMAIL_PORT": parts.port or (465 if ssl else 587 if scheme == "submission" else 25),
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_TLS": not ssl and (scheme == "submission" or query.get("tls") in on),
        "EMAIL_USE_SSL": ssl,
    }
