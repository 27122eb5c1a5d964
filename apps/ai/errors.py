from apps.core.errors import ApplicationError


class GenerationFailed(ApplicationError):
    """The job ended without a result; the message is the spec's (e.g. 'Gemini API error: 503')."""

    status_code = 502
    code = "generation_failed"
