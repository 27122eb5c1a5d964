from apps.core.errors import ApplicationError


class GenerationFailed(ApplicationError):
    """The job ended without a result; the message is the spec's (e.g. 'Gemini API error: 503')."""

    status_code = 502
    code = "generation_failed"


class GenerationUnavailable(ApplicationError):
    """The job could not be handed to the workers (the broker is down): 503 with Retry-After."""

    status_code = 503
    code = "unavailable"

    def __init__(self, message: str, *, retry_after: int, **kw):
        retry_after = max(1, int(retry_after))
        super().__init__(message, headers={"Retry-After": str(retry_after)}, **kw)
        self.retry_after = retry_after
