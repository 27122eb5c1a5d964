from apps.core.errors import ApplicationError, RetryLater


class GenerationFailed(ApplicationError):
    """The job ended without a result; the message is the spec's (e.g. 'Gemini API error: 503')."""

    status_code = 502
    code = "generation_failed"


class GenerationUnavailable(RetryLater):
    """The job could not be handed to the workers (the broker is down): 503 with Retry-After."""

    status_code = 503
    code = "unavailable"
